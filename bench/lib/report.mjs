/** The printed table and the targets check. */

const fixed = (value, digits) => (Number.isFinite(value) ? value.toFixed(digits) : '-');

function failures(row) {
  if (!row.result) return '';
  const { errors, non2xx, statusCodes } = row.result;
  const bad = Object.entries(statusCodes)
    .filter(([code]) => !code.startsWith('2'))
    .map(([code, count]) => `${count}x${code}`);
  return `${errors}/${non2xx}${bad.length ? ` (${bad.join(', ')})` : ''}`;
}

export function formatTable(rows) {
  const header = ['endpoint', 'conns', 'req/s', 'p50 ms', 'p99 ms', 'vs bare', 'errors/non-2xx'];
  const lines = rows.map((row) =>
    row.skipped
      ? [row.name, '-', '-', '-', '-', '-', `skipped: ${row.skipped}`]
      : [
          row.name,
          String(row.connections),
          fixed(row.result.rps, 0),
          fixed(row.result.p50, 2),
          fixed(row.result.p99, 2),
          row.ratio === null ? '-' : `${fixed(row.ratio * 100, 1)}%`,
          failures(row),
        ],
  );
  const widths = header.map((title, i) => Math.max(title.length, ...lines.filter((line) => line[1] !== '-' || i === 0).map((line) => line[i].length)));
  const pad = (cells) =>
    cells
      .map((cell, i) => (i === 0 || i === cells.length - 1 ? cell.padEnd(widths[i]) : cell.padStart(widths[i])))
      .join('  ')
      .trimEnd();
  return [
    pad(header),
    widths.map((w) => '-'.repeat(w)).join('  '),
    ...lines.map((line) => (line[1] === '-' ? `${line[0].padEnd(widths[0])}  ${line[6]}` : pad(line))),
  ].join('\n');
}

const MB = (bytes) => (bytes === null ? '-' : `${(bytes / 1e6).toFixed(1)} MB`);

/** The server's resident memory at rest after start and after the measured load (target: idle under 150 MB). */
export function formatMemory({ idle, afterLoad }) {
  const met = idle !== null && idle < 150e6;
  return `server RSS: idle ${MB(idle)} (${met ? 'met' : 'MISSED'}: target < 150 MB), after the load ${MB(afterLoad)}`;
}

/**
 * Targets every GET scenario shares: p99 under 25 ms at the lowest connection count, and at
 * the highest a p99 within 2.5 times the p50 (a tail beyond queueing means pauses, not load).
 */
export const GET_TARGETS = { maxP99Ms: 25, maxTailRatio: 2.5 };

/**
 * One line per target: the scenario's ratio at every connection count; p99 and req/s at the
 * lowest; the tail ratio at the highest.
 */
export function formatTargets(rows, lowestConnections, highestConnections) {
  const lines = [];
  const line = (met, row, text) => lines.push(`${met ? 'met   ' : 'MISSED'}  ${row.name} @${row.connections}: ${text}`);
  for (const row of rows) {
    if (row.skipped || (!row.targets && row.method !== 'GET')) continue;
    const { minRatio, maxP99Ms, minRps, maxTailRatio } = { ...(row.method === 'GET' ? GET_TARGETS : {}), ...row.targets };
    const { rps, p50, p99 } = row.result;
    if (minRatio !== undefined && row.ratio !== null) line(row.ratio >= minRatio, row, `${fixed(row.ratio * 100, 1)}% of bare (target >= ${minRatio * 100}%)`);
    if (row.connections === lowestConnections) {
      if (maxP99Ms !== undefined) line(p99 < maxP99Ms, row, `p99 ${fixed(p99, 2)} ms (target < ${maxP99Ms} ms)`);
      if (minRps !== undefined) line(rps >= minRps, row, `${fixed(rps, 0)} req/s (target >= ${minRps})`);
    }
    if (maxTailRatio !== undefined && row.connections === highestConnections && highestConnections !== lowestConnections) {
      line(p99 <= maxTailRatio * p50, row, `p99 ${fixed(p99 / p50, 2)}x p50 (target <= ${maxTailRatio}x)`);
    }
  }
  return lines.join('\n');
}
