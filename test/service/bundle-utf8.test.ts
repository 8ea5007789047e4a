/**
 * A bundle must be UTF-8: anything else is refused with the offset of the first bad byte, and
 * nothing is imported; valid text split anywhere across chunks is accepted as it is.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import fc from 'fast-check';
import { assertProperty } from '../support/property';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { firstInvalid, Utf8Check } from '../../service/bundle-import/utf8-check';
import { runLabeldesk } from '../cli/run-labeldesk';
import { COMPANIES, makeReport } from '../support/service-fixture';
import { column, serviceFile } from '../support/service-files';

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'labeldesk-utf8-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** What a strict decoder says: the offset of the first bad byte, or -1. */
function reference(bytes: Uint8Array): number {
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(bytes);
    return -1;
  } catch {
    return firstInvalid(bytes);
  }
}

function checkInChunks(bytes: Uint8Array, cuts: number[]): number {
  const check = new Utf8Check();
  let from = 0;
  for (const cut of [...cuts.filter((c) => c > 0 && c < bytes.length).sort((a, b) => a - b), bytes.length]) {
    const found = check.push(bytes.subarray(from, cut));
    if (found !== -1) return found;
    from = cut;
  }
  return check.end();
}

describe('Utf8Check', () => {
  it('finds the first bad byte wherever the chunks are cut, and agrees with a strict decoder on validity', () => {
    const text = fc.string({ unit: 'binary', maxLength: 40 }).map((s) => new Uint8Array(Buffer.from(s, 'utf8')));
    const noise = fc.uint8Array({ maxLength: 40 });
    assertProperty(
      fc.property(fc.oneof(text, noise), fc.array(fc.nat(60), { maxLength: 5 }), (bytes, cuts) => {
        const whole = reference(bytes);
        const chunked = checkInChunks(bytes, cuts);
        if (whole === -1) expect(chunked).toBe(-1);
        else expect(chunked).toBe(whole);
      }),
      { numRuns: 2000 },
    );
  });

  it('names overlong forms, surrogates, code points past U+10FFFF and a cut-off last character', () => {
    expect(checkInChunks(Uint8Array.from([0x41, 0xc0, 0x80]), [])).toBe(1);
    expect(checkInChunks(Uint8Array.from([0xed, 0xa0, 0x80]), [1])).toBe(0);
    expect(checkInChunks(Uint8Array.from([0x20, 0xf4, 0x90, 0x80, 0x80]), [2, 3])).toBe(1);
    expect(checkInChunks(Uint8Array.from([0x61, 0x62, 0xe2, 0x82]), [3])).toBe(2);
    expect(checkInChunks(new Uint8Array(Buffer.from('Zürich € 😀')), [2, 3, 8, 12])).toBe(-1);
  });
});

describe('importing a bundle that is not UTF-8', () => {
  const latin1Bundle = () => {
    const text = JSON.stringify({ version: 1, companies: COMPANIES, labelReports: [makeReport('z1', { labelReference: 'Zürich-Ost' })] });
    return { bytes: Buffer.from(text, 'latin1'), offset: Buffer.from(text, 'latin1').indexOf(0xfc) };
  };

  it('is refused with the byte offset, and nothing is imported', async () => {
    const service = serviceFile(dir);
    const { bytes, offset } = latin1Bundle();
    expect(offset).toBeGreaterThan(0);
    // Cut right after the bad byte and inside the text before it: the offset is absolute.
    const chunks = [bytes.subarray(0, 10), bytes.subarray(10, offset + 1), bytes.subarray(offset + 1)];
    const result = await service.importBundle(Readable.from(chunks));
    expect(result.ok).toBe(false);
    expect(result.problems).toEqual([{ path: '$', message: expect.stringContaining(`offset ${offset} is not valid UTF-8`) }]);
    expect(column(service.file, 'SELECT count(*) FROM label_reports')).toEqual([0]);
    expect(column(service.file, 'SELECT count(*) FROM companies')).toEqual([0]);
  });

  it('labeldesk import exits 1 and says why; the same bundle saved as UTF-8 keeps "Zürich-Ost"', async () => {
    const { bytes, offset } = latin1Bundle();
    const file = join(dir, 'latin1.json');
    writeFileSync(file, bytes);
    const db = join(dir, 'cli.db');
    const refused = await runLabeldesk(dir, ['import', '--db', db, file]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain(`offset ${offset} is not valid UTF-8`);
    writeFileSync(file, Buffer.from(bytes.toString('latin1'), 'utf8'));
    const accepted = await runLabeldesk(dir, ['import', '--db', db, file]);
    expect(accepted.code).toBe(0);
    expect(column(db, 'SELECT label_reference FROM label_reports')).toEqual(['Zürich-Ost']);
  });
});
