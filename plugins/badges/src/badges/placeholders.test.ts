import { describe, expect, it } from 'vitest';
import { hasPlaceholders, memoized, renderUrl, type PlaceholderName } from './placeholders.js';
import { badgeErrors, urlError } from './url-rules.js';

const values: Partial<Record<PlaceholderName, string | null>> = {
  project_path: 'acme/tools/app',
  project_title: 'My App',
  project_name: 'app',
  project_id: '42',
  project_namespace: 'acme/tools',
  group_name: 'Acme Inc',
  service_server: 'forge.example.com',
  service_pages_domain: 'pages.example.com',
  default_branch: 'main',
  commit_sha: null,
  latest_tag: 'v1.2.0',
};
const lookup = async (name: PlaceholderName) => values[name] ?? null;

describe('placeholders', () => {
  it('replaces every placeholder in a URL, keeping the rest as written', async () => {
    expect(await renderUrl('https://%{service_server}/%{project_path}/-/commits/%{default_branch}?id=%{project_id}', lookup)).toBe(
      'https://forge.example.com/acme/tools/app/-/commits/main?id=42',
    );
    expect(await renderUrl('https://x/%{project_name}/%{project_namespace}/%{latest_tag}', lookup)).toBe('https://x/app/acme/tools/v1.2.0');
  });

  it('escapes values for a URL', async () => {
    expect(await renderUrl('https://x/%{project_title}/%{group_name}', lookup)).toBe('https://x/My%20App/Acme%20Inc');
  });

  it("accepts GitLab's spellings and the escaped form", async () => {
    expect(await renderUrl('https://%{gitlab_server}/a', lookup)).toBe('https://forge.example.com/a');
    expect(await renderUrl('https://%{gitlab_pages_domain}/a', lookup)).toBe('https://pages.example.com/a');
    expect(await renderUrl('https://x/%25%7Bproject_id%7D', lookup)).toBe('https://x/42');
  });

  it('leaves placeholders without a value, and unknown names, as written', async () => {
    expect(await renderUrl('https://x/%{commit_sha}/%{unknown}/%{project_idx}', lookup)).toBe('https://x/%{commit_sha}/%{unknown}/%{project_idx}');
    expect(await renderUrl('https://x/plain%20url', lookup)).toBe('https://x/plain%20url');
  });

  it('renders one URL anew with each source’s values, escaped forms and repeats included', async () => {
    const url = 'https://x/%{project_id}/%25%7Bproject_id%7D/%{commit_sha}?t=%{project_title}';
    expect(await renderUrl(url, lookup)).toBe('https://x/42/42/%{commit_sha}?t=My%20App');
    const other = async (name: PlaceholderName) => ({ project_id: '7', commit_sha: 'abc', project_title: 'Ünï' })[name as string] ?? null;
    expect(await renderUrl(url, other)).toBe('https://x/7/7/abc?t=%C3%9Cn%C3%AF');
  });

  it('tells whether a URL names a placeholder', () => {
    expect(hasPlaceholders('https://x/%{project_path}')).toBe(true);
    expect(hasPlaceholders('https://x/%25%7Bcommit_sha%7D')).toBe(true);
    expect(hasPlaceholders('https://x/%{nope}')).toBe(false);
  });

  it('looks each value up once for a request', async () => {
    let lookups = 0;
    const once = memoized(async () => {
      lookups++;
      return 'v';
    });
    await renderUrl('https://x/%{commit_sha}/%{commit_sha}', once);
    await renderUrl('https://y/%{commit_sha}', once);
    expect(lookups).toBe(1);
  });
});

describe('badge URL validation', () => {
  it.each([
    ['https://example.com/badge.svg', null],
    ['http://localhost:8080/x', null],
    ['https://10.0.0.1/x', null],
    ['https://[::1]/x', null],
    ['https://%{service_pages_domain}/%{project_path}', null],
    ['', 'must be a valid URL'],
    ['whatever', 'is blocked: Only allowed schemes are http, https'],
    ['ftp://example.com/x', 'is blocked: Only allowed schemes are http, https'],
    ['javascript:alert(1)', 'is blocked: Only allowed schemes are http, https'],
    ['https://exa mple.com', 'is blocked: URI is invalid'],
    ['https://example.com/\nx', 'is blocked: URI is invalid'],
    ['https://-example.com', 'is blocked: Hostname or IP address invalid'],
  ])('%j: %j', (url, error) => expect(urlError(url)).toBe(error));

  it('reports both URLs, and a name past its column', () => {
    expect(badgeErrors({ linkUrl: 'whatever', imageUrl: null, name: 'n' })).toEqual({
      link_url: ['is blocked: Only allowed schemes are http, https'],
      image_url: ['must be a valid URL'],
    });
    expect(badgeErrors({ linkUrl: 'https://a', imageUrl: 'https://b', name: 'n'.repeat(256) })).toEqual({ name: ['is too long (maximum is 255 characters)'] });
    expect(badgeErrors({ linkUrl: 'https://a', imageUrl: 'https://b', name: 'n'.repeat(255) })).toBeNull();
  });
});
