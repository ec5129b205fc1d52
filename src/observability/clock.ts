/**
 * The time as ISO 8601 text (`2026-11-23T01:02:03.456Z`, what Date#toISOString writes) for records
 * written per request. On Node 20, toISOString formats through the C library (about 2 us); here the
 * text up to the second is made once a second and the milliseconds appended.
 */
let second = Number.NaN;
let prefix = '';

export function isoTime(now: number = Date.now()): string {
  const s = Math.floor(now / 1000);
  if (s !== second) {
    // `2026-11-23T01:02:03.` (years 0-9999; outside them toISOString's own text, whole)
    const whole = new Date(s * 1000).toISOString();
    if (whole.length !== 24) return new Date(now).toISOString();
    second = s;
    prefix = whole.slice(0, 20);
  }
  const ms = now - s * 1000;
  return `${prefix}${ms < 10 ? '00' : ms < 100 ? '0' : ''}${ms}Z`;
}
