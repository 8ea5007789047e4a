/**
 * Conversions between epoch seconds (the API's time unit) and the `YYYY-MM-DDTHH:MM[:SS]`
 * text of an <input type="datetime-local">, which is local wall-clock time without a zone.
 */

const pad = (n: number, width = 2) => String(n).padStart(width, '0');

/** Local wall-clock text for an <input type="datetime-local" step="1">. */
export function epochToLocalInput(seconds: number): string {
  const d = new Date(seconds * 1000);
  return (
    `${pad(d.getFullYear(), 4)}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}` +
    `T${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}`
  );
}

const LOCAL = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.\d+)?)?$/;

/** Epoch seconds of a datetime-local value, or null when the text is empty or not a real time. */
export function localInputToEpoch(text: string): number | null {
  const m = LOCAL.exec(text.trim());
  if (!m) return null;
  const [y, mo, d, h, mi, s] = [1, 2, 3, 4, 5, 6].map((i) => Number(m[i] ?? 0));
  const date = new Date(y, mo - 1, d, h, mi, s);
  if (date.getFullYear() !== y || date.getMonth() !== mo - 1 || date.getDate() !== d) return null;
  if (h > 23 || mi > 59 || s > 59) return null;
  return Math.floor(date.getTime() / 1000);
}
