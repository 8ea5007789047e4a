/**
 * How the running service opens its database, beside how a command does: statement journals
 * and transient tables in memory (a tap's triggers would otherwise make, write and delete a
 * temporary file in every write), which an import, whose staging must stay on disk, refuses.
 */
import Database from 'better-sqlite3';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DataStore } from '../../db/data-store';
import { openService } from '../../host/open-service';
import { startService } from '../../host/start-service';
import { COMPANIES, makeReport } from '../support/service-fixture';

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'labeldesk-service-connection-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const bundle = () => Readable.from([Buffer.from(JSON.stringify({ version: 1, companies: COMPANIES, labelReports: [makeReport('b1')] }))]);
const tempStore = (data: DataStore) => (data as unknown as { db: Database.Database }).db.pragma('temp_store', { simple: true });
const reportCount = (file: string) => {
  const db = new Database(file, { readonly: true });
  try {
    return db.prepare('SELECT count(*) FROM label_reports').pluck().get();
  } finally {
    db.close();
  }
};

describe('the service connection', () => {
  it('keeps transient data in memory only when asked', () => {
    const asked = DataStore.open(join(dir, 'asked.sqlite'), { transientInMemory: true });
    const plain = DataStore.open(join(dir, 'plain.sqlite'));
    try {
      expect(tempStore(asked)).toBe(2);
      expect(tempStore(plain)).toBe(0);
    } finally {
      asked.close();
      plain.close();
    }
  });

  it('a command imports; the running service refuses to stage an import in memory, and changes nothing', async () => {
    const commandFile = join(dir, 'command.sqlite');
    const command = openService(commandFile);
    expect((await command.importBundle(bundle())).ok).toBe(true);
    command.close();
    expect(reportCount(commandFile)).toBe(1);

    const servedFile = join(dir, 'served.sqlite');
    const running = await startService({ dbFile: servedFile, port: 0 });
    try {
      await expect(running.service.importBundle(bundle())).rejects.toThrow(/stages its bundle in temporary files/);
      // The service's writes with triggers work as before.
      for (const company of COMPANIES) running.service.companies.upsert(company);
      running.service.putReport(makeReport('s1'), { kind: 'import' });
    } finally {
      await running.close();
    }
    expect(reportCount(servedFile)).toBe(1);
  });
});
