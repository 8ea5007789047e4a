/**
 * A bundle is UTF-8 (JSON's encoding). Decoding anything else silently turns each bad byte into
 * U+FFFD, so a Latin-1 "Zürich" would be stored as "Z\uFFFDrich": every chunk is checked first,
 * natively for the common valid case, and a bad one is walked to name the first bad byte.
 */
import { isUtf8 } from 'node:buffer';

export class Utf8Check {
  /** Bytes read before the current chunk (not counting the carried tail). */
  private offset = 0;
  /** The start of a character that the previous chunk cut off. */
  private carry: Uint8Array = new Uint8Array(0);

  /** The absolute offset of the first byte that is not UTF-8, or -1 when the chunk is fine so far. */
  push(chunk: Uint8Array): number {
    const bytes = this.carry.length === 0 ? chunk : concat(this.carry, chunk);
    const start = this.offset - this.carry.length;
    const cut = completeLength(bytes);
    const body = bytes.subarray(0, cut);
    if (!isUtf8(body)) return start + firstInvalid(body);
    this.carry = bytes.slice(cut);
    this.offset = start + cut + this.carry.length;
    return -1;
  }

  /** At the end: a character left unfinished is invalid too. */
  end(): number {
    return this.carry.length === 0 ? -1 : this.offset - this.carry.length;
  }
}

function concat(a: Uint8Array, b: Uint8Array): Uint8Array {
  const out = new Uint8Array(a.length + b.length);
  out.set(a);
  out.set(b, a.length);
  return out;
}

/** How many bytes end on a character boundary: a lead byte in the last three without all its continuation bytes is cut off. */
function completeLength(bytes: Uint8Array): number {
  for (let back = 1; back <= Math.min(3, bytes.length); back++) {
    const b = bytes[bytes.length - back];
    if ((b & 0xc0) === 0x80) continue; // a continuation byte: look further back
    const need = b >= 0xf0 ? 4 : b >= 0xe0 ? 3 : b >= 0xc0 ? 2 : 1;
    return need > back ? bytes.length - back : bytes.length;
  }
  return bytes.length;
}

/** The index of the first byte that starts no valid UTF-8 sequence (RFC 3629: no overlongs, no surrogates, ≤ U+10FFFF). */
export function firstInvalid(bytes: Uint8Array): number {
  let i = 0;
  while (i < bytes.length) {
    const b = bytes[i];
    if (b < 0x80) {
      i++;
      continue;
    }
    const rule = sequenceRule(b);
    if (rule === null || i + rule.continuations >= bytes.length) return i;
    const second = bytes[i + 1];
    if (second < rule.min || second > rule.max) return i;
    for (let k = 2; k <= rule.continuations; k++) if ((bytes[i + k] & 0xc0) !== 0x80) return i;
    i += rule.continuations + 1;
  }
  return bytes.length;
}

/** For a lead byte: how many continuation bytes follow, and the range the first of them must be in. */
function sequenceRule(lead: number): { continuations: number; min: number; max: number } | null {
  if (lead >= 0xc2 && lead <= 0xdf) return { continuations: 1, min: 0x80, max: 0xbf };
  if (lead === 0xe0) return { continuations: 2, min: 0xa0, max: 0xbf }; // no overlongs
  if (lead === 0xed) return { continuations: 2, min: 0x80, max: 0x9f }; // no surrogates
  if (lead >= 0xe1 && lead <= 0xef) return { continuations: 2, min: 0x80, max: 0xbf };
  if (lead === 0xf0) return { continuations: 3, min: 0x90, max: 0xbf }; // no overlongs
  if (lead === 0xf4) return { continuations: 3, min: 0x80, max: 0x8f }; // nothing past U+10FFFF
  if (lead >= 0xf1 && lead <= 0xf3) return { continuations: 3, min: 0x80, max: 0xbf };
  return null;
}
