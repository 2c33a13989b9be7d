/**
 * Checks answers a client received against the server's OpenAPI document: the status must
 * be one the operation lists, and the body must match the schema listed for it.
 */
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';

type Document = { paths: Record<string, Record<string, { responses: Record<string, { $ref?: string; content?: Record<string, unknown> }> }>> };

const pointerToken = (token: string) => token.replace(/~/g, '~0').replace(/\//g, '~1');

export interface AnswerCheck {
  /** The operation's path template, or null when no path of the document matches. */
  template: string | null;
  /** Why the answer does not match the document; empty when it does. */
  problems: string[];
}

export function documentChecker(document: unknown) {
  const doc = document as Document;
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  (addFormats as unknown as (ajv: Ajv2020) => void)(ajv);
  ajv.addSchema(doc as object, 'openapi.json', undefined, false);
  const templates = Object.keys(doc.paths).map((template) => ({
    template,
    pattern: new RegExp(`^${template.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{[^}]+\}/g, '[^/]+')}$`),
  }));

  /** The template a concrete path (`/api/v4/users/1`) is served by: the one with fewest parameters among those that match. */
  const templateOf = (method: string, path: string) =>
    templates
      .filter(({ template, pattern }) => pattern.test(path) && doc.paths[template]![method.toLowerCase()])
      .map(({ template }) => template)
      .sort((a, b) => a.split('{').length - b.split('{').length)[0] ?? null;

  return function check(method: string, path: string, status: number, body: unknown, contentType = 'application/json'): AnswerCheck {
    const template = templateOf(method, path);
    if (!template) return { template, problems: [`no operation ${method} ${path}`] };
    const operation = doc.paths[template]![method.toLowerCase()]!;
    const response = operation.responses[String(status)];
    if (!response) return { template, problems: [`${method} ${template} lists no ${status} answer (it lists ${Object.keys(operation.responses).join(', ')})`] };
    const at = response.$ref ?? `#/paths/${pointerToken(template)}/${method.toLowerCase()}/responses/${status}`;
    // No content, or not modified: there is no body to check.
    if (status === 204 || status === 304) return { template, problems: [] };
    const validate = ajv.getSchema(`openapi.json${at}/content/${pointerToken(contentType)}/schema`);
    if (!validate) return { template, problems: [`${method} ${template} ${status} lists no ${contentType} body`] };
    if (validate(body)) return { template, problems: [] };
    return { template, problems: (validate.errors ?? []).map((error) => `${error.instancePath || '(body)'} ${error.message}`) };
  };
}
