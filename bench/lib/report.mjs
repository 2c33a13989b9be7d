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

/** One line per target: the scenario's ratio at every connection count, p99 at the lowest. */
export function formatTargets(rows, lowestConnections) {
  const lines = [];
  for (const row of rows) {
    if (row.skipped || !row.targets) continue;
    const { minRatio, maxP99Ms } = row.targets;
    if (minRatio !== undefined && row.ratio !== null) {
      const met = row.ratio >= minRatio;
      lines.push(`${met ? 'met   ' : 'MISSED'}  ${row.name} @${row.connections}: ${fixed(row.ratio * 100, 1)}% of bare (target >= ${minRatio * 100}%)`);
    }
    if (maxP99Ms !== undefined && row.connections === lowestConnections) {
      const met = row.result.p99 < maxP99Ms;
      lines.push(`${met ? 'met   ' : 'MISSED'}  ${row.name} @${row.connections}: p99 ${fixed(row.result.p99, 2)} ms (target < ${maxP99Ms} ms)`);
    }
  }
  return lines.join('\n');
}
