import type { WebHookLogRow } from '../entities/web-hook-log.js';

/** GitLab's HookEvent entity (`response_status` a string: a code or `internal error`). */
export function presentLog(log: WebHookLogRow) {
  return {
    id: log.id,
    url: log.url,
    trigger: log.trigger,
    request_headers: JSON.parse(log.requestHeaders),
    request_data: JSON.parse(log.requestData),
    response_headers: JSON.parse(log.responseHeaders),
    response_body: log.responseBody,
    execution_duration: log.executionMs / 1000,
    response_status: log.responseStatus,
    created_at: log.createdAt.toISOString(),
  };
}
