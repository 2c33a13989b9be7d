/** Where the API is served, below the kernel's base path. */
export const API_PREFIX = '/api/v4';
