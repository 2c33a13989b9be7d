const DAY_MS = 86_400_000;
let dayStart = 0;
let dayEnd = 0;
let dayText = '';

/**
 * Today (UTC) as `YYYY-MM-DD`, the form dates are stored and compared in (token and
 * membership expiry, due dates). Formatted once per day rather than on every request.
 */
export function today(): string {
  const now = Date.now();
  if (now < dayStart || now >= dayEnd) {
    dayStart = now - (now % DAY_MS);
    dayEnd = dayStart + DAY_MS;
    dayText = new Date(dayStart).toISOString().slice(0, 10);
  }
  return dayText;
}
