/**
 * The zone every time in the report panel, the chart and the printout is shown in: the desk's
 * local time or UTC (a shipment crossing zones is often discussed in UTC). The choice is named
 * wherever a time is shown, so a printout read elsewhere is never ambiguous.
 */

export const TIME_ZONES = ['local', 'utc'] as const;

export { TIME_ZONE_STORAGE_KEY } from '../../contract/print-view';
export type TimeZoneSetting = (typeof TIME_ZONES)[number];

export function isTimeZoneSetting(value: unknown): value is TimeZoneSetting {
  return (TIME_ZONES as readonly unknown[]).includes(value);
}

/** The IANA name of the desk's own zone ("Europe/Berlin"), or null where the runtime does not say. */
export function localZoneName(): string | null {
  try {
    return Intl.DateTimeFormat().resolvedOptions().timeZone || null;
  } catch {
    return null;
  }
}

/**
 * How the zone is named beside times: "UTC", or "local time (Europe/Berlin)" — the local zone
 * named even where it is UTC, so a sentence never says "local time" beside a header saying "UTC".
 */
export function zoneLabel(zone: TimeZoneSetting): string {
  if (zone === 'utc') return 'UTC';
  const name = localZoneName();
  return name ? `local time (${name})` : 'local time';
}

/** Short form for tight places (table headers, axis titles): "UTC" or the local zone's name. */
export function zoneShortLabel(zone: TimeZoneSetting): string {
  return zone === 'utc' ? 'UTC' : (localZoneName() ?? 'local time');
}

/**
 * Where a time is shown: the zone chosen in the header, or a named IANA zone (a signature's time
 * on the signer's own clock).
 */
export type ShownZone = TimeZoneSetting | { iana: string };

const formats = new Map<string, Intl.DateTimeFormat>();

/**
 * The one formatter of every time the app shows: the desk's language for month names and order,
 * always on a 24-hour clock, so no panel reads "2:05 PM" beside another's "14:05".
 */
function formatter(zone: ShownZone, style: 'full' | 'seconds' | 'short' | 'day' | 'clock'): Intl.DateTimeFormat {
  const timeZone = typeof zone === 'object' ? zone.iana : zone === 'utc' ? 'UTC' : undefined;
  const key = `${timeZone ?? ''}:${style}`;
  let f = formats.get(key);
  if (!f) {
    const parts: Record<typeof style, Intl.DateTimeFormatOptions> = {
      full: { year: 'numeric', month: 'short', day: '2-digit', hour: '2-digit', minute: '2-digit' },
      seconds: { year: 'numeric', month: 'short', day: '2-digit', hour: '2-digit', minute: '2-digit', second: '2-digit' },
      short: { month: 'short', day: '2-digit', hour: '2-digit', minute: '2-digit' },
      day: { month: 'short', day: '2-digit' },
      clock: { hour: '2-digit', minute: '2-digit' },
    };
    const hours = style === 'day' ? {} : { hourCycle: 'h23' as const };
    f = new Intl.DateTimeFormat(undefined, { ...(timeZone ? { timeZone } : {}), ...parts[style], ...hours });
    formats.set(key, f);
  }
  return f;
}

/** Date and time of epoch seconds in the zone, "Nov 22, 2026, 14:05" (with seconds when asked). */
export function formatTime(seconds: number, zone: ShownZone, withSeconds = false): string {
  if (!Number.isFinite(seconds)) return '—';
  try {
    return formatter(zone, withSeconds ? 'seconds' : 'full').format(new Date(seconds * 1000));
  } catch {
    // A zone name this runtime does not know (a signature from elsewhere): the instant in UTC, said so.
    return `${formatter('utc', withSeconds ? 'seconds' : 'full').format(new Date(seconds * 1000))} UTC`;
  }
}

/** An ISO 8601 instant (`created`, `updated`, review and history times) in the zone. */
export function formatIsoTime(iso: string, zone: ShownZone, withSeconds = false): string {
  const ms = Date.parse(iso);
  return Number.isNaN(ms) ? iso : formatTime(ms / 1000, zone, withSeconds);
}

/** "Nov 22" of epoch seconds in the zone. */
export function formatDay(seconds: number, zone: ShownZone): string {
  return formatter(zone, 'day').format(new Date(seconds * 1000));
}

/** "14:05" of epoch seconds in the zone. */
export function formatClock(seconds: number, zone: ShownZone): string {
  return formatter(zone, 'clock').format(new Date(seconds * 1000));
}

/** Seconds to add to an instant to get its wall-clock time in the zone (0 for UTC). */
export function zoneOffsetSeconds(seconds: number, zone: TimeZoneSetting): number {
  return zone === 'utc' ? 0 : -new Date(seconds * 1000).getTimezoneOffset() * 60;
}

const pad = (n: number, width = 2) => String(n).padStart(width, '0');

/** Wall-clock text in the zone for an <input type="datetime-local" step="1">. */
export function toDateTimeInput(seconds: number, zone: TimeZoneSetting): string {
  const d = new Date((seconds + zoneOffsetSeconds(seconds, zone)) * 1000);
  return (
    `${pad(d.getUTCFullYear(), 4)}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())}` +
    `T${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())}`
  );
}

const INPUT = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.\d+)?)?$/;

/** Epoch seconds of a datetime-local value read in the zone; null when empty or not a real time. */
export function fromDateTimeInput(text: string, zone: TimeZoneSetting): number | null {
  const m = INPUT.exec(text.trim());
  if (!m) return null;
  const [y, mo, d, h, mi, s] = [1, 2, 3, 4, 5, 6].map((i) => Number(m[i] ?? 0));
  if (h > 23 || mi > 59 || s > 59) return null;
  const wall = Date.UTC(y, mo - 1, d, h, mi, s);
  const check = new Date(wall);
  if (check.getUTCFullYear() !== y || check.getUTCMonth() !== mo - 1 || check.getUTCDate() !== d) return null;
  const wallSeconds = Math.floor(wall / 1000);
  if (zone === 'utc') return wallSeconds;
  // The offset of the instant itself, found from a first guess (they differ only across a DST change).
  const guess = wallSeconds - zoneOffsetSeconds(wallSeconds, zone);
  return wallSeconds - zoneOffsetSeconds(guess, zone);
}
