import { describe, expect, it } from 'vitest';
import { contentDisposition } from './content-disposition.js';

describe('contentDisposition', () => {
  it("sends Rails' Content-Disposition with both file name forms", () => {
    expect(contentDisposition('attachment', 'test.jpg')).toBe(`attachment; filename="test.jpg"; filename*=UTF-8''test.jpg`);
    expect(contentDisposition('inline', 'my-file_1.png')).toBe(`inline; filename="my-file_1.png"; filename*=UTF-8''my-file_1.png`);
    expect(contentDisposition('attachment', 'café.txt')).toBe(`attachment; filename="cafe.txt"; filename*=UTF-8''caf%C3%A9.txt`);
    expect(contentDisposition('attachment', '日本.png')).toBe(`attachment; filename="%3F%3F.png"; filename*=UTF-8''%E6%97%A5%E6%9C%AC.png`);
  });

  it('percent-encodes quotes, spaces and parentheses as Rails does', () => {
    expect(contentDisposition('inline', 'a "b" (c).txt')).toBe(`inline; filename="a %22b%22 %28c%29.txt"; filename*=UTF-8''a%20%22b%22%20%28c%29.txt`);
  });
});
