/**
 * JSON from outside, read only while its shape fits a memory budget. The size cap bounds the
 * bytes of an answer, but not what they cost once parsed: 64 MiB of `0,0,0,…` is 33 million
 * values and gigabytes of heap, while an honest answer of the same size (reports, datapoints
 * with their keys) holds a few million; and one string of 63 MiB is copied by every step that
 * touches it. The bytes are scanned as they arrive, without parsing, and the answer is cut off
 * as soon as its values outnumber what an honest answer of the cap could hold, or one of its
 * strings outgrows any honest field.
 */

/** The fewest bytes an honest value takes on average (a datapoint `{"timestamp":…,"temperature":…}` takes about 14). */
export const MIN_BYTES_PER_VALUE = 12;

/** The longest string an honest answer holds (its texts have at most 1 000 characters; user and preset objects are small). */
export const MAX_STRING_BYTES = 64 * 1024;

/** Values of an answer of `maxBytes` at most: its size in honest values, never fewer than a small answer needs. */
export function valueBudget(maxBytes: number): number {
  return Math.max(100_000, Math.floor(maxBytes / MIN_BYTES_PER_VALUE));
}

/**
 * A scanner fed an answer's bytes chunk by chunk, in order. Values are counted as each array
 * and object, and each comma between members, outside strings.
 */
export class JsonBudget {
  private readonly limit: number;
  private values = 1;
  private inString = false;
  private escaped = false;
  private stringBytes = 0;

  constructor(maxBytes: number) {
    this.limit = valueBudget(maxBytes);
  }

  /** Why the answer is past the budget with this chunk, or null while it fits. */
  feed(chunk: Uint8Array): string | null {
    for (let i = 0; i < chunk.length; i++) {
      const c = chunk[i];
      if (this.inString) {
        if (this.escaped) this.escaped = false;
        else if (c === 0x5c) this.escaped = true;
        else if (c === 0x22) this.inString = false;
        if (++this.stringBytes > MAX_STRING_BYTES) return `it holds a string of more than ${MAX_STRING_BYTES / 1024} KiB`;
        continue;
      }
      if (c === 0x22) {
        this.inString = true;
        this.stringBytes = 0;
      } else if ((c === 0x2c || c === 0x5b || c === 0x7b) && ++this.values > this.limit) {
        return `it holds more JSON values than an honest answer of ${this.limit * MIN_BYTES_PER_VALUE} bytes could (over ${this.limit})`;
      }
    }
    return null;
  }
}
