/**
 * The JSON budget scanner: honest answers pass however their bytes are cut into chunks; an
 * answer of tiny values or with one huge string is cut off early, at the same point whatever
 * the chunks; escaped quotes do not end a string.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { JsonBudget, MAX_STRING_BYTES, valueBudget } from '../../jobs/json-budget';
import { makeReport } from '../support/service-fixture';
import { assertProperty } from '../support/property';

const MIB = 1024 * 1024;

/** Feeds `text` in pieces cut at `cuts` (offsets); the first reason, or null. */
function scan(text: string | Buffer, maxBytes: number, cuts: readonly number[] = []): string | null {
  const bytes = Buffer.isBuffer(text) ? text : Buffer.from(text);
  const budget = new JsonBudget(maxBytes);
  let from = 0;
  for (const cut of [...new Set(cuts)].filter((c) => c > 0 && c < bytes.length).sort((a, b) => a - b).concat(bytes.length)) {
    const reason = budget.feed(bytes.subarray(from, cut));
    if (reason !== null) return reason;
    from = cut;
  }
  return null;
}

describe('the JSON budget', () => {
  it('lets an honest answer through, cut anywhere', () => {
    const page = JSON.stringify({ data: Array.from({ length: 200 }, (_, i) => makeReport(`r-${i}`, { labelReference: `say "hi" \\ ${i}` })), totalDocuments: 200 });
    assertProperty(
      fc.property(fc.array(fc.nat({ max: page.length }), { maxLength: 20 }), (cuts) => {
        expect(scan(page, 1 * MIB, cuts)).toBeNull();
      }),
    );
  });

  it('cuts off tiny values once they outnumber what an honest answer of the cap holds', () => {
    const limit = valueBudget(2 * MIB);
    expect(scan(`[${'0,'.repeat(limit - 2)}0]`, 2 * MIB)).toBeNull();
    expect(scan(`[${'0,'.repeat(limit + 10)}0]`, 2 * MIB)).toMatch(/more JSON values than an honest answer/);
  });

  it('cuts off a string longer than any honest field, across chunks, and counts escapes as inside it', () => {
    const long = `{"labelReference":"${'x'.repeat(MAX_STRING_BYTES + 10)}"}`;
    assertProperty(
      fc.property(fc.array(fc.nat({ max: long.length }), { maxLength: 8 }), (cuts) => {
        expect(scan(long, 64 * MIB, cuts)).toMatch(/a string of more than 64 KiB/);
      }),
    );
    // `\"` does not end the string: its commas are no values, and its length still counts.
    const escaped = `["${'\\",'.repeat(MAX_STRING_BYTES)}"]`;
    expect(scan(escaped, 64 * MIB, [1, 2, 3])).toMatch(/a string of more than 64 KiB/);
    expect(scan(`["${'\\",'.repeat(1000)}"]`, 1 * MIB)).toBeNull();
  });
});
