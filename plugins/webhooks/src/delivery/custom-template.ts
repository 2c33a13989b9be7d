/**
 * A hook's custom template: each `{{a.b.c}}` takes the payload's value at that path (strings
 * without their quotes, so they may sit inside a JSON string); the result must be JSON.
 */
const PLACEHOLDER = /\{\{([^{}]+)\}\}/g;

export class TemplateError extends Error {}

function dig(data: unknown, path: string[]): unknown {
  let value = data;
  for (const key of path) value = value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>)[key] : undefined;
  return value;
}

export function renderTemplate(template: string, payload: Record<string, unknown>): string {
  const rendered = template.replace(PLACEHOLDER, (_whole, path: string) => {
    const value = dig(payload, path.trim().split('.'));
    if (value === undefined) return '';
    const json = JSON.stringify(value);
    return typeof value === 'string' ? json.slice(1, -1) : json;
  });
  try {
    JSON.parse(rendered);
  } catch (error) {
    throw new TemplateError(`Error while parsing rendered custom webhook template: ${(error as Error).message}`);
  }
  return rendered;
}
