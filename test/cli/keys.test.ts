/**
 * `labeldesk keys create|list|revoke` against a running service (`labeldesk serve`): a key made
 * by the real binary works over HTTP until it is revoked, then answers 401. The other runs go
 * through the command line's entry in this process.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { REPO, runLabeldesk, runLabeldeskInProcess as inProcess } from './run-labeldesk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openService } from '../../host/open-service';


let dir: string;
let dbFile: string;
let server: ChildProcess | undefined;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'labeldesk-keys-'));
  dbFile = join(dir, 'keys.db');
  const service = openService(dbFile);
  service.createDemoData({ reports: 30, seed: 8 });
  service.close();
});
afterAll(() => {
  if (server && server.exitCode === null) server.kill('SIGKILL');
  rmSync(dir, { recursive: true, force: true });
});

const labeldesk = (args: string[], env: Record<string, string> = {}) => runLabeldesk(dir, args, env);

function serve(): Promise<{ url: string; exited: Promise<number | null> }> {
  const child = spawn(process.execPath, [join(REPO, 'bin/labeldesk.js'), 'serve', '--db', dbFile, '--port', '0'], {
    cwd: dir,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  server = child;
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (d) => {
      out += d;
      const url = /(http:\/\/\S+)\n/.exec(out)?.[1];
      if (url) resolve({ url, exited });
    });
    void exited.then((code) => reject(new Error(`serve exited with ${code}`)));
  });
}

describe('labeldesk keys', () => {
  it('creates a key shown once, lists keys without them, and a revoked key answers 401 over HTTP', async () => {
    const created = await labeldesk(['keys', 'create', '--db', dbFile, '--company', 'nordic', '--name', 'ERP sync', '--permissions', 'labelReports:read,labelReports:update']);
    expect(created.code).toBe(0);
    expect(created.stdout).toMatch(/^created an API key for Nordic Pharma Logistics \(nordic\)$/m);
    expect(created.stdout).toMatch(/^permissions: labelReports:read,labelReports:update$/m);
    const key = /^key:\s+(ldk_\S+)$/m.exec(created.stdout)![1];
    const id = /^id:\s+(\S+)$/m.exec(created.stdout)![1];

    const listed = await inProcess(['keys', 'list', '--db', dbFile]);
    expect(listed.code).toBe(0);
    const header = listed.stdout.split('\n')[0];
    expect(header.split(/\s{2,}/)).toEqual(['ID', 'COMPANY', 'NAME', 'PERMISSIONS', 'CREATED', 'REVOKED']);
    const row = listed.stdout.split('\n').find((l) => l.startsWith(id))!;
    expect(row.split(/\s{2,}/)).toEqual([id, 'nordic', 'ERP sync', 'labelReports:read,labelReports:update', expect.stringMatching(/^\d{4}-\d\d-\d\dT/), '-']);
    expect(listed.stdout).not.toContain('ldk_');
    expect(listed.stdout.trim().split('\n')).toHaveLength(1 + 4 + 1);

    const { url, exited } = await serve();
    const ask = () => fetch(`${url}/v2/labelReports?pageSize=1&output=minimal`, { headers: { 'x-api-key': key } });
    const ok = await ask();
    expect(ok.status).toBe(200);
    expect(((await ok.json()) as { totalDocuments: number }).totalDocuments).toBeGreaterThan(0);

    const revoked = await inProcess(['keys', 'revoke', '--db', dbFile, id]);
    expect(revoked.code).toBe(0);
    expect(revoked.stdout.trim()).toBe(`revoked the API key ${id} of nordic (ERP sync)`);
    const refused = await ask();
    expect(refused.status).toBe(401);
    expect(await refused.json()).toMatchObject({ statusCode: 401, code: 'API_KEY_INVALID' });

    const again = await inProcess(['keys', 'revoke', '--db', dbFile, id]);
    expect(again.code).toBe(1);
    expect(again.stderr).toMatch(/was already revoked at \d{4}-/);
    const relisted = await inProcess(['keys', 'list', '--db', dbFile, '--company', 'nordic']);
    expect(relisted.stdout.split('\n').find((l) => l.startsWith(id))).toMatch(/\d{4}-\d\d-\d\dT\S+Z$/);

    server!.kill('SIGTERM');
    expect(await exited).toBe(0);
  });

  it('says what is wrong: unknown company, permission or key, missing arguments, missing database', async () => {
    const [company, permission, unknownKey, noCompany, noSub, noDb] = await Promise.all([
      inProcess(['keys', 'create', '--db', dbFile, '--company', 'ghost']),
      inProcess(['keys', 'create', '--db', dbFile, '--company', 'acme', '--permissions', 'labelReports:delete']),
      inProcess(['keys', 'revoke', '--db', dbFile, 'no-such-id']),
      inProcess(['keys', 'create', '--db', dbFile]),
      inProcess(['keys', 'rotate', '--db', dbFile]),
      inProcess(['keys', 'list', '--db', join(dir, 'absent.db')]),
    ]);
    expect(company).toMatchObject({ code: 1, stdout: '' });
    expect(company.stderr.trim()).toBe("labeldesk keys: unknown company 'ghost' (companies: acme, fresh, nordic)");
    expect(permission.code).toBe(2);
    expect(permission.stderr).toMatch(/unknown permission 'labelReports:delete': choose from labelReports:read, labelReports:update, labelReports:create, webhooks:manage, apiKeys:manage, sync:manage/);
    expect(unknownKey.code).toBe(1);
    expect(unknownKey.stderr).toMatch(/there is no API key with id 'no-such-id'/);
    expect(noCompany.code).toBe(2);
    expect(noCompany.stderr).toMatch(/which company\? give --company ID/);
    expect(noSub.code).toBe(2);
    expect(noSub.stderr).toMatch(/unknown keys command 'rotate'/);
    expect(noDb.code).toBe(1);
    expect(noDb.stderr).toMatch(/there is no database at/);
  });
});
