/**
 * A large write that has the file alone goes through SQLite's rollback journal instead of the
 * write-ahead log (DataStore.withRollbackJournal, an import's switch-in): it is as safe (a crash
 * image taken half way opens as the file was before the write), it leaves the file in WAL mode
 * whether it commits or not, and while another connection has the file open it stays with the
 * log, so that connection reads on.
 */
import { copyFileSync, existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DataStore } from '../../db/data-store';
import { openDatabase } from '../../db/database';
import { reportFromBundle } from '../../service/report-from-bundle';
import { ReportWriter } from '../../service/report-writer';
import { COMPANIES, makeReport, T0 } from '../support/service-fixture';
import { temporaryFolder } from './migration-fixture';

const folder = temporaryFolder('labeldesk-rollback-journal-');
let n = 0;

/** A report of 10 000 datapoints (about 85 KB of pages with its rows). */
const longReport = (id: string) =>
  makeReport(id, {
    reportedSenseData: { datapoints: Array.from({ length: 10_000 }, (_, k) => ({ timestamp: T0 + k * 60, temperature: ((k * 7919) % 1000) / 100 })) },
  });

/** A store on a new file holding the companies and one report, `kept`. */
function store() {
  const file = join(folder(), `journal-${++n}.sqlite`);
  const data = DataStore.open(file);
  const writer = new ReportWriter(data, () => new Date('2026-06-02T00:00:00.000Z'));
  data.write(() => {
    for (const company of COMPANIES) data.companies.upsert(company);
    writer.put(reportFromBundle(makeReport('kept')), { kind: 'import' });
  });
  /** Writes long reports `prefix-0` … in the write transaction of the caller. */
  const writeReports = (prefix: string, count: number) => {
    for (let i = 0; i < count; i++) writer.put(reportFromBundle(longReport(`${prefix}-${i}`)), { kind: 'import' });
  };
  return { file, data, writeReports };
}

/** The report ids the file holds, read by a connection of its own (which rolls back a hot journal first). */
function idsIn(file: string): string[] {
  const db = openDatabase(file);
  try {
    return db.prepare('SELECT id FROM label_reports ORDER BY id').pluck().all() as string[];
  } finally {
    db.close();
  }
}

function journalModeOf(file: string): string {
  const db = openDatabase(file, { readonly: true });
  try {
    return db.pragma('journal_mode', { simple: true }) as string;
  } finally {
    db.close();
  }
}

describe('a large write under the rollback journal', () => {
  it('survives a crash half way: the file opens as it was before the write', () => {
    const { file, data, writeReports } = store();
    const before = join(folder(), 'before.sqlite');
    const image = join(folder(), 'crash.sqlite');
    data.withRollbackJournal(() => {
      // Leaving the log copied every page into the file: this is the file before the write.
      copyFileSync(file, before);
      data.write(() => {
        // More pages than the connection's page cache of 16 MB holds (about 25 MB): the write
        // overwrites pages of the file in place before it commits, the journal holding what they were.
        writeReports('lost', 300);
        expect(existsSync(`${file}-wal`)).toBe(false);
        // What a process killed now leaves on the disk.
        copyFileSync(file, image);
        copyFileSync(`${file}-journal`, `${image}-journal`);
      });
    });
    expect(readFileSync(image).equals(readFileSync(before))).toBe(false);

    expect(idsIn(image)).toEqual(['kept']);
    const reopened = openDatabase(image);
    expect(reopened.pragma('integrity_check', { simple: true })).toBe('ok');
    expect(reopened.pragma('journal_mode', { simple: true })).toBe('wal');
    reopened.close();
    expect(existsSync(`${image}-journal`)).toBe(false);
    // The write itself committed.
    expect(idsIn(file)).toHaveLength(301);
    data.close();
  });

  it('leaves the file in WAL mode after it commits, and after it fails', () => {
    const { file, data, writeReports } = store();
    data.withRollbackJournal(() => data.write(() => writeReports('new', 20)));
    expect(journalModeOf(file)).toBe('wal');
    expect(() =>
      data.withRollbackJournal(() =>
        data.write(() => {
          writeReports('gone', 20);
          throw new Error('half way');
        }),
      ),
    ).toThrow('half way');
    expect(journalModeOf(file)).toBe('wal');
    expect(existsSync(`${file}-journal`)).toBe(false);
    // The connection writes through the log again.
    data.write(() => writeReports('after', 1));
    expect(existsSync(`${file}-wal`)).toBe(true);
    expect(idsIn(file)).toEqual(['after-0', 'kept', ...Array.from({ length: 20 }, (_, i) => `new-${i}`).sort()]);
    data.close();
  });

  it('stays with the write-ahead log while another connection has the file open, which reads the state before meanwhile', () => {
    const { file, data, writeReports } = store();
    const other = openDatabase(file);
    const count = other.prepare('SELECT count(*) FROM label_reports').pluck();
    data.withRollbackJournal(() =>
      data.write(() => {
        writeReports('new', 20);
        expect(existsSync(`${file}-journal`)).toBe(false);
        expect(count.get()).toBe(1);
      }),
    );
    expect(count.get()).toBe(21);
    other.close();
    data.close();
  });
});
