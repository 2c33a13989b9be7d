import { Writable } from 'node:stream';
import { pino } from 'pino';
import { describe, expect, it, vi } from 'vitest';
import { createLogger, preformattedInfo } from './logger.js';

function sink() {
  const lines: string[] = [];
  const stream = new Writable({
    write(chunk, _encoding, done) {
      lines.push(...String(chunk).split('\n').filter(Boolean));
      done();
    },
  });
  return { lines, stream };
}

const fields = {
  request_id: 'abc',
  method: 'GET',
  path: '/api/v4/projects/"x"\\\u0001é',
  status: null,
  duration_ms: 0.25,
  user_id: 7,
  remote_ip: '127.0.0.1',
};
const asProperties = (object: Record<string, unknown>) =>
  Object.entries(object)
    .map(([key, value]) => `,${JSON.stringify(key)}:${JSON.stringify(value)}`)
    .join('');
const withoutTime = (line: string) => line.replace(/"time":"[^"]*"/, '"time":"T"');

describe('preformattedInfo', () => {
  it('writes the line pino writes for the same fields, with the bindings of a child logger', () => {
    const { lines, stream } = sink();
    const log = createLogger('info', stream).child({ worker: 2 });
    const write = preformattedInfo(log, Object.keys(fields), 'request');
    expect(write).not.toBeNull();
    log.info(fields, 'request');
    write!(asProperties(fields));
    expect(lines).toHaveLength(2);
    expect(withoutTime(lines[1]!)).toBe(withoutTime(lines[0]!));
    expect(JSON.parse(lines[1]!)).toMatchObject({ level: 30, service: 'forgekit', worker: 2, ...fields, msg: 'request' });
  });

  it('leaves loggers that shape their lines to pino', () => {
    const { stream } = sink();
    expect(preformattedInfo(pino({ mixin: () => ({ extra: 1 }) }, stream), ['path'], 'request')).toBeNull();
    expect(preformattedInfo(pino({ redact: ['path'] }, stream), ['path'], 'request')).toBeNull();
    expect(preformattedInfo(pino({ serializers: { path: String } }, stream), ['path'], 'request')).toBeNull();
    expect(preformattedInfo(pino({ formatters: { log: (object) => object } }, stream), ['path'], 'request')).toBeNull();
    expect(preformattedInfo(pino({ msgPrefix: '[http] ' }, stream), ['path'], 'request')).toBeNull();
  });
});

describe('createLogger', () => {
  it('stamps each line with the time of its own millisecond', () => {
    const { lines, stream } = sink();
    const log = createLogger('info', stream);
    const now = vi.spyOn(Date, 'now');
    try {
      for (const at of [Date.UTC(2026, 0, 2, 3, 4, 5, 6), Date.UTC(2026, 0, 2, 3, 4, 5, 6), Date.UTC(2026, 0, 2, 3, 4, 5, 7), Date.UTC(2027, 0, 1)]) {
        now.mockReturnValue(at);
        log.info('tick');
      }
    } finally {
      now.mockRestore();
    }
    expect(lines.map((line) => JSON.parse(line).time)).toEqual([
      '2026-01-02T03:04:05.006Z',
      '2026-01-02T03:04:05.006Z',
      '2026-01-02T03:04:05.007Z',
      '2027-01-01T00:00:00.000Z',
    ]);
  });
});
