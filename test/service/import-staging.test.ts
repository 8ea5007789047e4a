/**
 * A long import keeps no other writer waiting: while its bundle streams in it only stages, so
 * the running service's own writes go through; its reports appear all at once when it switches
 * them in, or never when the bundle turns out bad.
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openService } from '../../host/open-service';
import { parseListQuery } from '../../query/list-query';
import type { BundleReport } from '../../schema/bundle';
import { COMPANIES, makeReport } from '../support/service-fixture';
import { column, serviceFile } from '../support/service-files';

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'labeldesk-import-staging-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const acme = { keyId: 'desk', companyId: 'acme', permissions: new Set(['labelReports:read', 'labelReports:update'] as const) };

/** A bundle source that sends its first part, then waits until `release` before the rest. */
function gatedSource(reports: unknown[]) {
  const text = JSON.stringify({ version: 1, companies: COMPANIES, labelReports: reports });
  const cut = text.indexOf('"labelReports"') + Math.floor((text.length - text.indexOf('"labelReports"')) / 2);
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  let waiting!: () => void;
  const atGate = new Promise<void>((resolve) => (waiting = resolve));
  async function* source() {
    yield Buffer.from(text.slice(0, cut));
    // Asked for more: the first part has been read and staged.
    waiting();
    await released;
    yield Buffer.from(text.slice(cut));
  }
  return { source: source(), atGate, release };
}

const total = (service: ReturnType<typeof openService>) =>
  service.reports.list(acme, parseListQuery({ pageSize: '1', output: 'minimal' })).totalDocuments;

describe('an import in progress', () => {
  it('lets the service write meanwhile, and shows its reports only once switched in', async () => {
    const importer = serviceFile(dir);
    const running = openService(importer.file);
    running.companies.upsert(COMPANIES[0]);
    running.putReport(makeReport('live'), { kind: 'import' });

    const incoming: BundleReport[] = Array.from({ length: 400 }, (_, i) => makeReport(`in-${i}`));
    const gate = gatedSource(incoming);
    const switchingIn: { journal: boolean; total: number }[] = [];
    const importing = importer.importBundle(gate.source, {
      onPhase: (phase) => {
        if (phase === 'listing') switchingIn.push({ journal: existsSync(`${importer.file}-journal`), total: total(running) });
      },
    });
    await gate.atGate;

    // The running service writes and reads while the import is half way.
    const patched = running.reports.update(acme, 'live', { labelReference: 'PATCHED-DURING-IMPORT' });
    expect(patched.labelReference).toBe('PATCHED-DURING-IMPORT');
    expect(total(running)).toBe(1);

    gate.release();
    const result = await importing;
    expect(result).toMatchObject({ ok: true, counts: { labelReports: 400 } });
    // The service had the file open: the switch-in went through the log, and it read on meanwhile.
    expect(switchingIn).toEqual([{ journal: false, total: 1 }]);
    expect(total(running)).toBe(401);
    expect(running.reports.retrieve(acme, 'live').labelReference).toBe('PATCHED-DURING-IMPORT');
    expect(importer.history('in-399')).toMatchObject([{ kind: 'create', actor: { kind: 'import' } }]);
    // Analysed once switched in, so list queries get plans made for the data, not guesses.
    expect(column(importer.file, "SELECT count(*) FROM sqlite_stat1 WHERE tbl = 'label_reports'")[0]).toBeGreaterThan(0);
    running.close();
    importer.close();
  });

  it('that fails at its end leaves nothing, and the writes made meanwhile stand', async () => {
    const importer = serviceFile(dir);
    const running = openService(importer.file);
    running.companies.upsert(COMPANIES[0]);
    running.putReport(makeReport('live'), { kind: 'import' });

    const gate = gatedSource([...Array.from({ length: 200 }, (_, i) => makeReport(`in-${i}`)), { ...makeReport('bad'), companyId: 'ghost' }]);
    const importing = importer.importBundle(gate.source);
    await gate.atGate;
    running.reports.update(acme, 'live', { hasFlag: true });
    gate.release();
    const result = await importing;
    expect(result.ok).toBe(false);
    expect(result.problems[0].message).toMatch(/unknown company 'ghost'/);
    expect(total(running)).toBe(1);
    expect(running.reports.retrieve(acme, 'live').hasFlag).toBe(true);
    // The connection is ready for the next import: its scratch tables are gone.
    const next = JSON.stringify({ version: 1, companies: COMPANIES, labelReports: [makeReport('next')] });
    expect((await importer.importBundle(Readable.from([Buffer.from(next)]))).ok).toBe(true);
    expect(total(running)).toBe(2);
    running.close();
    importer.close();
  });

  it('that has the file alone switches in under the rollback journal, and leaves the file in WAL mode', async () => {
    const importer = serviceFile(dir);
    const journal: boolean[] = [];
    const text = JSON.stringify({ version: 1, companies: COMPANIES, labelReports: Array.from({ length: 50 }, (_, i) => makeReport(`in-${i}`)) });
    const result = await importer.importBundle(Readable.from([Buffer.from(text)]), {
      onPhase: (phase) => {
        if (phase === 'listing' || phase === 'committing') journal.push(existsSync(`${importer.file}-journal`) && !existsSync(`${importer.file}-wal`));
      },
    });
    expect(result.ok).toBe(true);
    expect(journal).toEqual([true, true]);
    expect(column(importer.file, 'PRAGMA journal_mode')).toEqual(['wal']);
    expect(existsSync(`${importer.file}-journal`)).toBe(false);
    expect(column(importer.file, 'SELECT count(*) FROM label_reports')).toEqual([50]);
    importer.close();
  });
});
