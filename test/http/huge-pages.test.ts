/**
 * The interface sets no maximum page size, so a page of any size is answered in bounded memory:
 * streamed from the rows as the client reads it. Clients that ask for huge pages and read them
 * slowly neither take the service down nor keep a small request waiting.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import http, { type IncomingMessage } from 'node:http';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openService } from '../../host/open-service';
import { REPO } from '../cli/run-labeldesk';

/** Far less heap than the pages asked for at once would need if each were built whole. */
const HEAP_MIB = 96;
const REPORTS = 300;
const CLIENTS = 10;

let dir: string;
let child: ChildProcess;
let url: string;
let key: string;
let exited: Promise<number | null>;
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'labeldesk-huge-'));
  const dbFile = join(dir, 'demo.sqlite');
  const seed = openService(dbFile);
  key = seed.createDemoData({ reports: REPORTS, seed: 3 }).keys.find((k) => k.name === 'Acme demo (read only)')!.key;
  seed.close();
  child = spawn(process.execPath, [`--max-old-space-size=${HEAP_MIB}`, join(REPO, 'bin/labeldesk.js'), 'serve', '--db', dbFile, '--port', '0'], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  exited = new Promise((resolve) => child.on('exit', (code) => resolve(code)));
  url = await new Promise<string>((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (d) => {
      out += d;
      const found = /http:\/\/[\d.]+:\d+/.exec(out);
      if (found) resolve(found[0]);
    });
    void exited.then((code) => reject(new Error(`serve exited with ${code}`)));
  });
});
afterAll(() => {
  child.kill('SIGKILL');
  rmSync(dir, { recursive: true, force: true });
});

/** Starts a GET and resolves with the response once its first bytes arrived, then paused. */
function startPaused(path: string): Promise<{ res: IncomingMessage; first: Buffer }> {
  return new Promise((resolve, reject) => {
    const req = http.get(url + path, { headers: { 'x-api-key': key }, agent: false }, (res) => {
      res.once('data', (first: Buffer) => {
        res.pause();
        resolve({ res, first });
      });
    });
    req.on('error', reject);
  });
}

function readRest(res: IncomingMessage, first: Buffer): Promise<string> {
  const chunks = [first];
  return new Promise((resolve, reject) => {
    res.on('data', (d: Buffer) => chunks.push(d));
    res.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    res.on('error', reject);
    res.resume();
  });
}

describe('huge pages', () => {
  it('are streamed: slow clients of many huge pages leave the service up, and a small request is answered meanwhile', async () => {
    const heavy = await Promise.all(
      Array.from({ length: CLIENTS }, () => startPaused('/v2/labelReports?pageSize=100000&output=normal')),
    );
    for (const { res } of heavy) {
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toMatch(/^application\/json/);
    }
    // Every huge answer is half sent and waiting for its client; a light request goes through.
    const light = await fetch(`${url}/v2/labelReports?pageSize=1&output=minimal`, { headers: { 'x-api-key': key } });
    expect(light.status).toBe(200);
    expect(((await light.json()) as { data: unknown[] }).data).toHaveLength(1);

    const bodies = await Promise.all(heavy.map(({ res, first }) => readRest(res, first)));
    for (const body of bodies) {
      const page = JSON.parse(body) as { data: { id: string }[]; totalDocuments: number };
      expect(page.data.length).toBe(page.totalDocuments);
      expect(page.totalDocuments).toBeGreaterThan(REPORTS / 2);
    }
    expect(child.exitCode).toBeNull();
  }, 120_000);

  it('the streamed page is the same JSON as pages read one by one', async () => {
    const get = async (query: string) =>
      (await (await fetch(`${url}/v2/labelReports?${query}`, { headers: { 'x-api-key': key } })).json()) as { data: unknown[]; totalDocuments: number };
    const whole = await get('pageSize=100000&output=minimal&order=updated[desc]');
    const pieces = [];
    for (let page = 1; page <= Math.ceil(whole.totalDocuments / 40); page++) {
      pieces.push(...(await get(`pageSize=40&pageNumber=${page}&output=minimal&order=updated[desc]`)).data);
    }
    expect(whole.data).toEqual(pieces);
    expect(await get('pageSize=100000&pageNumber=2')).toEqual({ data: [], totalDocuments: whole.totalDocuments });
  });
});
