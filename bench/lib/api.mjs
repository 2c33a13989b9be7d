/** A small JSON client for seeding through the API. */

export class ApiError extends Error {
  constructor(method, path, status, body) {
    super(`${method} ${path} answered ${status}: ${typeof body === 'string' ? body : JSON.stringify(body)}`);
    this.status = status;
    this.body = body;
  }
}

export function createApi(baseUrl, token) {
  async function request(method, path, body) {
    const response = await fetch(`${baseUrl}/api/v4${path}`, {
      method,
      headers: { 'private-token': token, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    const parsed = text && (response.headers.get('content-type') ?? '').includes('json') ? JSON.parse(text) : text;
    if (!response.ok) throw new ApiError(method, path, response.status, parsed);
    return parsed;
  }
  return {
    baseUrl,
    token,
    request,
    get: (path) => request('GET', path),
    post: (path, body) => request('POST', path, body),
    put: (path, body) => request('PUT', path, body),
    delete: (path) => request('DELETE', path),
  };
}
