/** What a delivery record never keeps: secret header values, emails in the payload, URL credentials. */
export const REDACTED = '[REDACTED]';
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export function redactEmails(value: unknown): unknown {
  if (typeof value === 'string') return EMAIL.test(value) ? REDACTED : value;
  if (Array.isArray(value)) return value.map(redactEmails);
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, redactEmails(item)]));
  return value;
}

/** `https://user:secret@host/…` as `https://*****:*****@host/…`. */
export function maskCredentials(url: string) {
  return url.replace(/^([a-z][a-z0-9+.-]*:\/\/)[^/@]*@/i, '$1*****:*****@');
}

export function redactHeaders(headers: Record<string, string>, secretNames: readonly string[]) {
  const secret = new Set(secretNames.map((name) => name.toLowerCase()));
  return Object.fromEntries(Object.entries(headers).map(([name, value]) => [name, secret.has(name.toLowerCase()) ? REDACTED : value]));
}
