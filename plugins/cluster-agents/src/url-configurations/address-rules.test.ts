import { describe, expect, it } from 'vitest';
import { isValidHost, urlError } from './address-rules.js';

describe('urlError', () => {
  it('accepts grpc and grpcs addresses, including local ones', () => {
    for (const url of ['grpc://agent.example.com', 'grpcs://localhost:4242', 'grpcs://10.0.0.5:8080/path', 'grpc://[::1]:4242']) {
      expect(urlError(url)).toBeNull();
    }
  });

  it('gives GitLab texts for blank, unparsable, wrong-scheme and bad-host URLs', () => {
    expect(urlError('')).toBe('Url must be a valid URL');
    expect(urlError('grpc://[oops')).toBe('Url is blocked: URI is invalid');
    expect(urlError('grpc://agent\n.example.com')).toBe('Url is blocked: URI is invalid');
    expect(urlError('https://agent.example.com')).toBe('Url is blocked: Only allowed schemes are grpc, grpcs');
    expect(urlError('agent.example.com')).toBe('Url is blocked: Only allowed schemes are grpc, grpcs');
    expect(urlError('GRPC://agent.example.com')).toBe('Url is blocked: Only allowed schemes are grpc, grpcs');
    expect(urlError('grpc://-agent.example.com')).toBe('Url is blocked: Hostname or IP address invalid');
  });
});

describe('isValidHost', () => {
  it('accepts names and addresses', () => {
    for (const host of ['example.com', 'Agent-1.internal', '10.0.0.1', '[::1]', 'under_score']) expect(isValidHost(host)).toBe(true);
  });

  it('rejects anything with a scheme, port, path, user or space', () => {
    for (const host of ['grpc://example.com', 'example.com:443', 'example.com/x', 'user@example.com', 'exa mple.com']) {
      expect(isValidHost(host)).toBe(false);
    }
  });
});
