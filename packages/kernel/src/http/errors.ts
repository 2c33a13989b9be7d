/**
 * Errors a handler throws. The kernel turns each into GitLab's wire shape:
 * `{"message": ...}` from GitLab's helpers, `{"error": ...}` from the framework
 * layer (validation, unknown routes), or an OAuth-style body for token failures.
 */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly body: Record<string, unknown>,
    readonly headers: Record<string, string> = {},
    /** Sent as `text/plain` instead of the JSON body, for answers GitLab gives before its API layer. */
    readonly text?: string,
  ) {
    super(`${status} ${text ?? JSON.stringify(body)}`);
  }
}

const withReason = (base: string, reason?: string) => (reason ? `${base} - ${reason}` : base);

/** `{"message": <message>}`, GitLab's `render_api_error!`. */
export const apiError = (status: number, message: unknown, headers?: Record<string, string>) => new ApiError(status, { message }, headers);

/** `{"error": <text>}`, the framework's shape (Grape). */
export const frameworkError = (status: number, error: unknown, headers?: Record<string, string>) => new ApiError(status, { error }, headers);

export const unauthorized = (reason?: string) => apiError(401, withReason('401 Unauthorized', reason));
export const forbidden = (reason?: string) => apiError(403, withReason('403 Forbidden', reason));
export const badRequest = (reason?: string) => apiError(400, withReason('400 Bad request', reason));
export const missingAttribute = (attribute: string) => badRequest(`"${attribute}" not given`);
/** `404 <Resource> Not Found`, or `404 Not Found` without a resource. */
export const notFound = (resource?: string) => apiError(404, resource ? `404 ${resource} Not Found` : '404 Not Found');
/** The lower-case form GitLab gives for a missing sub-record. */
export const recordNotFound = () => apiError(404, '404 Not found');
export const methodNotAllowed = (message = '405 Method Not Allowed') => apiError(405, message);
export const conflict = (message = '409 Conflict') => apiError(409, message);
export const unprocessable = (message: unknown = '422 Unprocessable Entity') => apiError(422, message);
export const tooLarge = () => apiError(413, '413 Request Entity Too Large');
export const serviceUnavailable = () => apiError(503, '503 Service Unavailable');
/** Model validation: `{"message": {"field": ["text", ...]}}`. */
export const validationFailed = (errors: Record<string, string[]>, status = 400) => apiError(status, errors);
/** A body passed through as it is. */
export const structuredError = (status: number, body: Record<string, unknown>, headers?: Record<string, string>) => new ApiError(status, body, headers);
export const tooManyRequests = (retryAfterSeconds = 60) =>
  apiError(429, { error: 'This endpoint has been requested too many times. Try again later.' }, { 'Retry-After': String(retryAfterSeconds) });

export const unknownRoute = () => frameworkError(404, '404 Not Found');

/** GitLab's answer to a NUL byte or invalid UTF-8 anywhere in a request's path, credentials or params. */
export const malformedRequest = () => new ApiError(400, {}, {}, 'Bad Request');
