/**
 * The record of who saw a report in the audit commands, on a real file a real server wrote:
 * a person and a tool's key read and export over HTTP, `labeldesk report --csv` exports from the
 * command line; `labeldesk audit export --access` lists each with its hashes, the archive holds
 * the same CSV and the archive's backup signs a checkpoint of the chain; `labeldesk audit verify`
 * finds the chain sound, then names the entry edited and the entries deleted behind the service's
 * back, the newest ones by the checkpoint even with the table's id counter put back; a backup
 * of the file so changed is not kept.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { parseCsv } from '../support/csv';
import { api, makeReport, startTestService } from '../support/service-fixture';
import { runLabeldesk, runLabeldeskInProcess } from './run-labeldesk';

let dir: string;
let dbFile: string;
let cleanUp: () => Promise<void>;
const PASSWORD = 'correct horse battery';

beforeAll(async () => {
  const svc = await startTestService([makeReport('r1'), makeReport('r2')]);
  cleanUp = () => Promise.resolve(rmSync(svc.dir, { recursive: true, force: true }));
  dir = mkdtempSync(join(tmpdir(), 'labeldesk-access-cli-'));
  dbFile = svc.dbFile;
  svc.service.users.saveSettings(null, 'acme', { changeAtFirstSignIn: false });
  const full = svc.service.apiKeys.create('acme', ['labelReports:read', 'labelReports:update', 'labelReports:create', 'webhooks:manage', 'apiKeys:manage', 'sync:manage'], 'setup');
  const made = await fetch(`${svc.url}/local/users`, {
    method: 'POST',
    headers: { 'x-api-key': full.key, 'content-type': 'application/json' },
    body: JSON.stringify({ login: 'vera', name: 'Vera Holm', role: 'viewer', password: PASSWORD }),
  });
  expect(made.status).toBe(201);
  const signIn = await fetch(`${svc.url}/local/session/sign-in`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ login: 'vera', password: PASSWORD }) });
  const token = ((await signIn.json()) as { token: string }).token;
  const asVera = (path: string, method = 'GET') => fetch(svc.url + path, { method, headers: { 'x-api-key': token } }).then((r) => r.status);
  expect(await asVera('/v2/labelReports/r1')).toBe(200);
  expect(await asVera('/local/labelReports/r1/printed', 'POST')).toBe(204);
  expect(await asVera('/local/labelReports/r1/readings.csv')).toBe(200);
  expect(await asVera('/local/labelReports.csv?filter=status[eq]active')).toBe(200);
  expect((await api(svc, '/v2/labelReports/r2', { key: 'acmeRead' })).status).toBe(200);
  await svc.close();
}, 60_000);
afterAll(async () => {
  await cleanUp?.();
  rmSync(dir, { recursive: true, force: true });
});

const records = (csv: string) => parseCsv(csv.replace(/^\uFEFF/, ''));

it('labeldesk report --csv is recorded as the command line’s export', async () => {
  const run = await runLabeldesk(dir, ['report', '--db', dbFile, '--id', 'r2', '--csv', join(dir, 'r2.csv')]);
  expect(run.code, run.stderr).toBe(0);
});

it('the audit export lists every access with its hashes', async () => {
  const exported = await runLabeldeskInProcess(['audit', 'export', '--db', dbFile, '--access']);
  expect(exported.code, exported.stderr).toBe(0);
  const [header, ...rows] = records(exported.stdout);
  expect(header.join(',')).toBe('entry,at,reportId,companyId,kind,format,detail,actor,apiKeyId,apiKeyName,userId,userLogin,userName,prevHash,hash');
  expect(rows.map((r) => [r[0], r[2], r[4], r[5], r[7], r[9] || r[11]])).toEqual([
    ['1', 'r1', 'view', 'json', 'person', 'vera'],
    ['2', 'r1', 'print', 'print', 'person', 'vera'],
    ['3', 'r1', 'export', 'readingsCsv', 'person', 'vera'],
    ['4', '', 'export', 'listCsv', 'person', 'vera'],
    ['5', 'r2', 'view', 'json', 'apiKey', 'acmeRead'],
    ['6', 'r2', 'export', 'readingsCsv', 'commandLine', ''],
  ]);
  expect(rows[5][6]).toMatch(/^labeldesk report, run by .+ on .+$/);
  expect(JSON.parse(rows[3][6])).toEqual({ query: { filter: 'status[eq]active' }, reports: 2 });
  // Each entry links to the one before.
  expect(rows[1][13]).toBe(rows[0][14]);
  expect((await runLabeldeskInProcess(['audit', 'export', '--db', dbFile, '--access', '--report', 'r1'])).code).toBe(2);
});

it('the archive holds the same access CSV', async () => {
  const archived = await runLabeldeskInProcess(['backup', '--db', dbFile, '--archive', join(dir, 'archive')]);
  expect(archived.code, archived.stderr).toBe(0);
  const [folder] = readdirSync(join(dir, 'archive'));
  const csv = records(readFileSync(join(dir, 'archive', folder, 'report-access.csv'), 'utf8'));
  expect(csv).toHaveLength(7);
  const manifest = JSON.parse(readFileSync(join(dir, 'archive', folder, 'manifest.json'), 'utf8'));
  expect(manifest.files.map((f: { name: string }) => f.name)).toContain('report-access.csv');
});

it('audit verify finds the chain sound, then names an edited and a deleted entry', async () => {
  // A checkpoint signed now names the chain with all six entries.
  const signed = await runLabeldeskInProcess(['audit', 'sign', '--db', dbFile]);
  expect(signed.code, signed.stderr).toBe(0);
  const sound = await runLabeldesk(dir, ['audit', 'verify', '--db', dbFile]);
  expect(sound.code, sound.stdout + sound.stderr).toBe(0);
  expect(sound.stdout).toMatch(/entries in \d+ chains checked( against [^:]+)?: the audit trail is sound/);

  const raw = new Database(dbFile);
  raw.prepare("UPDATE report_access SET user_login = 'someone' WHERE id = 2").run();
  raw.close();
  const edited = await runLabeldesk(dir, ['audit', 'verify', '--db', dbFile]);
  expect(edited.code).toBe(1);
  expect(edited.stdout).toContain('1 chain is broken');
  expect(edited.stdout).toContain('report_access id 2: content changed: its hash no longer matches its content');

  const newest = new Database(dbFile);
  newest.prepare("UPDATE report_access SET user_login = 'vera' WHERE id = 2").run();
  newest.prepare('DELETE FROM report_access WHERE id = 6').run();
  newest.close();
  const cut = await runLabeldesk(dir, ['audit', 'verify', '--db', dbFile]);
  expect(cut.code).toBe(1);
  expect(cut.stdout).toContain('report_access id 6: missing entry: the newest entries after 5 up to 6 are missing');

  // The id counter put back as well: the chain alone no longer tells, the signed checkpoint does.
  const counter = new Database(dbFile);
  counter.prepare("UPDATE sqlite_sequence SET seq = 5 WHERE name = 'report_access'").run();
  counter.close();
  const hidden = await runLabeldesk(dir, ['audit', 'verify', '--db', dbFile]);
  expect(hidden.code).toBe(1);
  expect(hidden.stdout).not.toContain('report_access id');
  expect(hidden.stdout).toMatch(/the access record ends at id 5, but checkpoint \d+ of \S+ signed it at id 6: its entries after id 5 up to id 6 are missing/);

  const middle = new Database(dbFile);
  middle.prepare('DELETE FROM report_access WHERE id = 3').run();
  middle.close();
  const deleted = await runLabeldesk(dir, ['audit', 'verify', '--db', dbFile]);
  expect(deleted.code).toBe(1);
  expect(deleted.stdout).toContain('report_access id 4: missing entry: entries 3 to 3 are missing');

  // A backup verifies the access chain as it verifies the others: the copy is not kept.
  const backup = await runLabeldeskInProcess(['backup', '--db', dbFile, '--to', join(dir, 'backups')]);
  expect(backup.code).toBe(1);
  expect(backup.stderr).toContain('the access chain is broken: report_access id 4: entries 3 to 3 are missing');
});
