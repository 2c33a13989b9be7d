import { describe, expect, it } from 'vitest';
import { contentTypeOf, markdownLink, markdownName, MAX_FILENAME_BYTES, pathSegment, sanitizeFilename, webDisposition } from './file-names.js';

describe('stored file names', () => {
  it.each([
    ['dk.png', 'dk.png'],
    ['my file (1).PDF', 'my_file__1_.PDF'],
    ['../../etc/passwd', 'passwd'],
    ['..\\..\\windows\\system.ini', 'system.ini'],
    ['dir/', 'dir'],
    ['/', 'unnamed'],
    ['..', '_..'],
    ['.', '_.'],
    ['', 'unnamed'],
    ['naïve café.txt', 'naïve_café.txt'],
    ['rapport-été_2024+final.md', 'rapport-été_2024+final.md'],
    ['a;rm -rf $HOME.sh', 'a_rm_-rf__HOME.sh'],
    ['<script>.html', '_script_.html'],
    ['日本語.png', '日本語.png'],
    ['emoji😀.gif', 'emoji_.gif'],
  ])('keeps %j as %j', (sent, stored) => expect(sanitizeFilename(sent)).toBe(stored));

  it('shortens a long name before its extension to fit one filesystem name', () => {
    const long = sanitizeFilename(`${'é'.repeat(300)}.png`);
    expect(Buffer.byteLength(long)).toBeLessThanOrEqual(MAX_FILENAME_BYTES);
    expect(long.endsWith('é.png')).toBe(true);
    expect(sanitizeFilename('x'.repeat(400))).toBe('x'.repeat(255));
  });
});

describe('Markdown of an upload', () => {
  it('embeds images, video, audio and SVG with their name without extension as alt', () => {
    expect(markdownName('dk.png')).toBe('dk');
    expect(markdownLink('dk.png', '/uploads/s/dk.png')).toBe('![dk](/uploads/s/dk.png)');
    expect(markdownLink('clip.MP4', '/u/clip.MP4')).toBe('![clip](/u/clip.MP4)');
    expect(markdownLink('song.ogg', '/u/song.ogg')).toBe('![song](/u/song.ogg)');
    expect(markdownLink('logo.svg', '/u/logo.svg')).toBe('![logo.svg](/u/logo.svg)');
  });

  it('links other files by their whole name', () => {
    expect(markdownName('notes.txt')).toBe('notes.txt');
    expect(markdownLink('notes.txt', '/u/notes.txt')).toBe('[notes.txt](/u/notes.txt)');
    expect(markdownLink('README', '/u/README')).toBe('[README](/u/README)');
  });
});

describe('serving', () => {
  it('types files by extension, and shows only embeddable ones inline', () => {
    expect(contentTypeOf('dk.png')).toBe('image/png');
    expect(contentTypeOf('notes.txt')).toBe('text/plain');
    expect(contentTypeOf('logo.svg')).toBe('image/svg+xml');
    expect(contentTypeOf('README')).toBe('application/octet-stream');
    expect(webDisposition('dk.png')).toBe('inline');
    expect(webDisposition('logo.svg')).toBe('attachment');
    expect(webDisposition('page.html')).toBe('attachment');
  });

  it('percent-encodes a name for a URL path segment', () => {
    expect(pathSegment('a+b_c.png')).toBe('a+b_c.png');
    expect(pathSegment('café.png')).toBe('caf%C3%A9.png');
  });
});
