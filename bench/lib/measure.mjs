/** One autocannon run against a prepared request, reduced to the numbers the table shows. */
import autocannon from 'autocannon';

/** Nearest-rank percentile of sorted values. */
const percentile = (sorted, p) => (sorted.length === 0 ? NaN : sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]);

/** `--connections 10,50` as ascending numbers. */
export const connectionCountsFrom = (text) =>
  text
    .split(',')
    .map(Number)
    .sort((a, b) => a - b);

export async function measure(baseUrl, prepared, { connections, durationSeconds }) {
  const { method = 'GET', path = '/', headers = {}, body, setupRequest } = prepared;
  const instance = autocannon({
    url: baseUrl,
    connections,
    duration: durationSeconds,
    requests: [{ method, path, headers, ...(body !== undefined ? { body } : {}), ...(setupRequest ? { setupRequest } : {}) }],
  });
  // autocannon's own histogram has 1 ms resolution; keep the exact 2xx latencies instead.
  const latencies = [];
  instance.on('response', (_client, statusCode, _bytes, responseTime) => {
    if (statusCode >= 200 && statusCode < 300) latencies.push(responseTime);
  });
  const result = await instance;
  latencies.sort((a, b) => a - b);
  return {
    rps: result.requests.total / result.duration,
    p50: percentile(latencies, 50),
    p99: percentile(latencies, 99),
    total: result.requests.total,
    errors: result.errors,
    timeouts: result.timeouts,
    non2xx: result.non2xx,
    statusCodes: Object.fromEntries(Object.entries(result.statusCodeStats ?? {}).map(([code, { count }]) => [code, Number(count)])),
  };
}
