/** Randomness for demo data: everything derives from text seeds, so the same seed gives the same data. */
import { createHash } from 'node:crypto';
export function sha256(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

/** mulberry32: a small, fast 32-bit PRNG, the same numbers from the same seed; plenty for made-up data. */
export function mulberry32(seed: number): () => number {
  let state = seed | 0;
  return () => {
    let t = (state = (state + 0x6d2b79f5) | 0);
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export class Random {
  readonly next: () => number;

  constructor(seed: string) {
    this.next = mulberry32(parseInt(sha256(seed).slice(0, 8), 16));
  }

  /** An integer in [min, max]. */
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }

  range(min: number, max: number): number {
    return min + this.next() * (max - min);
  }

  chance(p: number): boolean {
    return this.next() < p;
  }

  pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.next() * items.length)];
  }

  weighted<T>(items: readonly (readonly [T, number])[]): T {
    const total = items.reduce((s, [, w]) => s + w, 0);
    let r = this.next() * total;
    for (const [item, w] of items) {
      r -= w;
      if (r < 0) return item;
    }
    return items[items.length - 1][0];
  }

  /** Roughly normal, mean 0, deviation 1 (sum of uniforms). */
  gauss(): number {
    return this.next() + this.next() + this.next() + this.next() - 2;
  }

  hex(length: number): string {
    let s = '';
    while (s.length < length) s += ((this.next() * 0x10000) >>> 0).toString(16).padStart(4, '0');
    return s.slice(0, length);
  }
}
