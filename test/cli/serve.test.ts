/**
 * `labeldesk serve` as a real child process: the address line, requests with a demo key,
 * SIGTERM while requests are in flight and under load on keep-alive connections (every request
 * sent before it is answered, the exit code is 0), migrations on start, a newer schema refused,
 * --host beyond loopback only with --allow-remote, and durability of an answered PATCH across
 * SIGKILL.
 */
import type { ChildProcess } from 'node:child_process';
import http from 'node:http';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openService } from '../../host/open-service';
import { closed, connect, readResponse } from '../support/raw-http';
import { inspect } from '../support/service-files';
import { serveChild, type Served } from '../support/serve-child';
import { SCHEMA_VERSION } from '../../db/database';


let dir: string;
const children: ChildProcess[] = [];
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'labeldesk-serve-'));
});
afterAll(() => {
  for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  rmSync(dir, { recursive: true, force: true });
});

/** Starts `labeldesk serve …` and resolves once it printed its address (or rejects when it exits first). */
const serve = (args: string[]): Promise<Served> => serveChild(dir, args, children);

async function get(url: string, key: string): Promise<{ status: number; body: any }> {
  const res = await fetch(url, { headers: { 'x-api-key': key } });
  return { status: res.status, body: await res.json() };
}

function demoKey(stdout: string, company: string): string {
  const line = stdout.split('\n').find((l) => l.startsWith(company + ' ') && l.includes('labelReports:update'));
  return /ldk_[A-Za-z0-9_-]{43}/.exec(line ?? '')![0];
}

/** A database of 40 demo reports, and an acme key that may update them. */
function demoDatabase(dbFile: string): string {
  const demo = openService(dbFile);
  const summary = demo.createDemoData({ reports: 40, seed: 4 });
  demo.close();
  return summary.keys.find((k) => k.companyId === 'acme' && k.permissions.includes('labelReports:update'))!.key;
}

describe('labeldesk serve', () => {
  // Longer than the suite's deadline: the child writes 2000 demo reports before it listens,
  // which took over a minute beside other work on two cores.
  it('prints one address line, serves demo data, and on SIGTERM completes the requests in flight and exits 0', async () => {
    const dbFile = join(dir, 'demo.db');
    const served = await serve(['--db', dbFile, '--demo']);
    const urlLines = served.stdout().split('\n').filter((l) => l.includes('http://'));
    expect(urlLines).toEqual([expect.stringMatching(/^LabelDesk service listening on http:\/\/127\.0\.0\.1:\d+$/)]);
    expect(served.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const key = demoKey(served.stdout(), 'acme');

    const page = await get(`${served.url}/v2/labelReports?pageSize=5&output=minimal`, key);
    expect(page.status).toBe(200);
    expect(page.body.data).toHaveLength(5);
    const total = page.body.totalDocuments as number;
    expect(total).toBeGreaterThan(1000);
    const target = page.body.data[0].id as string;

    // In flight #1: a large list, its response started but not yet read by the client.
    let bigStarted!: (res: http.IncomingMessage) => void;
    let patchRequest!: http.ClientRequest;
    const big = new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = http.get(`${served.url}/v2/labelReports?pageSize=2000&output=normal`, { headers: { 'x-api-key': key } }, (res) => {
        res.pause();
        bigStarted(res);
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode!, body: Buffer.concat(chunks).toString() }));
        res.on('error', reject);
      });
      req.on('error', reject);
    });
    const bigResponse = await new Promise<http.IncomingMessage>((r) => (bigStarted = r));

    // In flight #2: a PATCH whose body is only half sent when the signal arrives. With `Expect:
    // 100-continue` the server says when it has read the headers; from then on it is in flight.
    const body = JSON.stringify({ labelReference: 'SHP-2026-SIGTERM', hasFlag: true });
    const patchResult = new Promise<{ status: number; connection?: string; body: string }>((resolve, reject) => {
      patchRequest = http.request(
        `${served.url}/v2/labelReports/${target}`,
        {
          method: 'PATCH',
          headers: {
            'x-api-key': key,
            'content-type': 'application/json',
            'content-length': Buffer.byteLength(body),
            expect: '100-continue',
          },
        },
        (res) => {
          let text = '';
          res.on('data', (c) => (text += c));
          res.on('end', () => resolve({ status: res.statusCode!, connection: res.headers.connection, body: text }));
        },
      );
      patchRequest.on('error', reject);
      patchRequest.flushHeaders();
    });
    await new Promise((r) => patchRequest.once('continue', r));
    patchRequest.write(body.slice(0, 10));

    served.child.kill('SIGTERM');
    await served.stderrMatching(/no longer accepting connections/);
    expect(served.child.exitCode).toBeNull(); // the PATCH holds the stop until the rest of its body comes
    // No new connections once stopping.
    await expect(connect(Number(new URL(served.url).port))).rejects.toMatchObject({ code: 'ECONNREFUSED' });

    patchRequest.end(body.slice(10));
    const patched = await patchResult;
    expect(patched.status).toBe(200);
    expect(patched.connection).toBe('close');
    expect(JSON.parse(patched.body)).toMatchObject({ id: target, labelReference: 'SHP-2026-SIGTERM', hasFlag: true });

    bigResponse.resume();
    const listed = await big;
    expect(listed.status).toBe(200);
    const list = JSON.parse(listed.body) as { data: { reportedSenseData: { datapoints: unknown[] } }[]; totalDocuments: number };
    expect(list.totalDocuments).toBe(total);
    expect(list.data).toHaveLength(Math.min(2000, total));
    expect(Math.max(...list.data.map((r) => r.reportedSenseData.datapoints.length))).toBeGreaterThanOrEqual(20_000);

    expect(await served.exited).toEqual({ code: 0, signal: null });
    expect(served.stderr()).toMatch(/SIGTERM: finishing the requests in flight/);
    expect(served.stderr()).toMatch(/LabelDesk service stopped/);

    const db = inspect(dbFile);
    expect(db.prepare('SELECT label_reference FROM label_reports WHERE id = ?').pluck().get(target)).toBe('SHP-2026-SIGTERM');
    db.close();
  }, 240_000);

  it('on SIGTERM under load answers every request already sent on its keep-alive connections', async () => {
    const dbFile = join(dir, 'load.db');
    const key = demoDatabase(dbFile);
    const served = await serve(['--db', dbFile]);
    const port = Number(new URL(served.url).port);
    const request = `GET /v2/labelReports?pageSize=40&output=minimal HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nx-api-key: ${key}\r\n\r\n`;
    // 22 open keep-alive connections, each with an exchange behind it (connections still in the
    // listener's backlog at the signal: test/cli/serve-stop.test.ts).
    const sockets = await Promise.all(
      Array.from({ length: 22 }, async () => {
        const socket = await connect(port);
        const first = readResponse(socket);
        socket.write(request);
        expect((await first)?.status).toBe(200);
        return socket;
      }),
    );
    let signalled = false;
    let sentBefore = 0;
    let answeredBefore = 0;
    let answered = 0;
    let loadOn!: () => void;
    const underLoad = new Promise<void>((resolve) => (loadOn = resolve));
    // Each sends its next request as soon as the last one is answered.
    const connections = sockets.map(async (socket) => {
      for (;;) {
        const answer = readResponse(socket);
        const before = !signalled;
        socket.write(request);
        if (before) sentBefore++;
        const response = await answer;
        if (response === null) return socket.destroy();
        expect(response.status).toBe(200);
        if (before) answeredBefore++;
        if (++answered === 66) loadOn();
        if (response.headers.connection === 'close') return closed(socket);
      }
    });
    await underLoad;
    signalled = true;
    served.child.kill('SIGTERM');
    await Promise.all(connections);
    expect(await served.exited).toEqual({ code: 0, signal: null });
    expect(answeredBefore).toBe(sentBefore);
  });

  it('migrates a database from an older schema version on start, and refuses one from a newer version', async () => {
    const old = join(dir, 'old.db');
    const raw = new Database(old);
    raw.exec('CREATE TABLE scratch (x); DROP TABLE scratch;');
    expect(raw.pragma('user_version', { simple: true })).toBe(0);
    raw.close();
    const served = await serve(['--db', old]);
    const status = await get(`${served.url}/v2/labelReports`, 'ldk_no_such_key_000000');
    expect(status.status).toBe(401);
    served.child.kill('SIGINT');
    expect((await served.exited).code).toBe(0);
    const migrated = new Database(old, { readonly: true });
    expect(migrated.pragma('user_version', { simple: true })).toBe(SCHEMA_VERSION);
    expect(migrated.prepare("SELECT count(*) FROM sqlite_master WHERE name = 'label_reports'").pluck().get()).toBe(1);
    migrated.close();

    const newer = join(dir, 'newer.db');
    const future = new Database(newer);
    future.pragma(`user_version = ${SCHEMA_VERSION + 1}`);
    future.close();
    await expect(serve(['--db', newer])).rejects.toThrow(/exited with 1 before listening[\s\S]*newer than this LabelDesk understands/);
    const untouched = new Database(newer, { readonly: true });
    expect(untouched.pragma('user_version', { simple: true })).toBe(SCHEMA_VERSION + 1);
    untouched.close();

    await expect(serve(['--db', join(dir, 'missing-folder', 'x.db')])).rejects.toThrow(/the folder .* does not exist/);
    await expect(serve(['--db', old, '--port', '70000'])).rejects.toThrow(/exited with 2[\s\S]*--port must be between 0 and 65535/);
  });

  it('refuses a --host other machines can reach unless --allow-remote is given, and then warns', async () => {
    const dbFile = join(dir, 'remote.db');
    await expect(serve(['--db', dbFile, '--host', '0.0.0.0'])).rejects.toThrow(
      /exited with 2[\s\S]*--host 0\.0\.0\.0 is not a loopback address[\s\S]*add --allow-remote/,
    );
    const served = await serve(['--db', dbFile, '--host', '0.0.0.0', '--allow-remote']);
    expect(served.url).toMatch(/^http:\/\/0\.0\.0\.0:\d+$/);
    await served.stderrMatching(/warning: serving on 0\.0\.0\.0, which other machines can reach/);
    served.child.kill('SIGTERM');
    expect((await served.exited).code).toBe(0);
  });

  it('keeps the Host guard on an IPv4-mapped loopback address', async () => {
    const served = await serve(['--db', join(dir, 'mapped.db'), '--host', '::ffff:127.0.0.1']);
    const port = Number(new URL(served.url).port);
    const res = await fetch(`http://127.0.0.1:${port}/v2/labelReports`, { headers: { origin: 'http://evil.com' } });
    expect(res.status).toBe(403);
    expect(await res.json()).toMatchObject({ code: 'ORIGIN_FORBIDDEN' });
    served.child.kill('SIGTERM');
    expect((await served.exited).code).toBe(0);
  });

  it('loses nothing when killed with SIGKILL right after a PATCH answered 200', async () => {
    const dbFile = join(dir, 'kill.db');
    const key = demoDatabase(dbFile);
    const db = inspect(dbFile);
    const id = db.prepare("SELECT label_report_id FROM access WHERE company_id = 'acme' AND role = 'owner' LIMIT 1").pluck().get() as string;
    db.close();

    const served = await serve(['--db', dbFile]);
    const res = await fetch(`${served.url}/v2/labelReports/${id}`, {
      method: 'PATCH',
      headers: { 'x-api-key': key, 'content-type': 'application/json' },
      body: JSON.stringify({ labelReference: 'PO-KILLED', limits: { maxTemperature: 40 }, isArchived: true }),
    });
    expect(res.status).toBe(200);
    served.child.kill('SIGKILL');
    expect((await served.exited).signal).toBe('SIGKILL');

    const after = inspect(dbFile);
    const row = after.prepare('SELECT * FROM label_reports WHERE id = ?').get(id);
    expect(row).toMatchObject({ label_reference: 'PO-KILLED', max_temperature: 40 });
    expect(after.prepare("SELECT is_archived FROM company_report_state WHERE company_id = 'acme' AND label_report_id = ?").pluck().get(id)).toBe(1);
    after.close();
  });
});
