/**
 * A stop keeps its promise under every kind of request at once: `labeldesk serve` as a real
 * child process gets PATCHes on kept-alive connections, large pages its clients read slowly and
 * uploads sent a piece at a time; a signal comes the moment every upload is whole, and every
 * request whose last byte was handed to the connection before the signal gets its whole answer.
 * Many rounds, with SIGTERM and SIGINT in turn, since a cut answer shows only now and then.
 */
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import type net from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openService } from '../../host/open-service';
import { connect, readResponse, type RawResponse } from '../support/raw-http';
import { column } from '../support/service-files';
import { serveChild, type Served } from '../support/serve-child';

const ROUNDS = 6;
const PATCHERS = 8;
const SLOW_READERS = 3;
const UPLOADERS = 3;

let dir: string;
let dbFile: string;
let key: string;
let reportIds: string[];
const children: ChildProcess[] = [];

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'labeldesk-serve-stop-'));
  dbFile = join(dir, 'site.db');
  const service = openService(dbFile);
  const summary = service.createDemoData({ reports: 160, seed: 9 });
  key = summary.keys.find((k) => k.companyId === 'acme' && k.permissions.includes('labelReports:update'))!.key;
  service.close();
  reportIds = column(dbFile, "SELECT label_report_id FROM access WHERE company_id = 'acme' AND role = 'owner' ORDER BY label_report_id") as string[];
});
afterAll(() => {
  for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  rmSync(dir, { recursive: true, force: true });
});

const serve = (): Promise<Served> => serveChild(dir, ['--db', dbFile], children);

/** Resolves once `data` has been handed to the connection whole. */
function send(socket: net.Socket, data: string | Buffer): Promise<void> {
  return new Promise((resolve, reject) => socket.write(data, (err) => (err ? reject(err) : resolve())));
}

/** One request and what became of it. */
interface Exchange {
  what: string;
  /** Its last byte was handed over before the signal. */
  sentBefore: boolean;
  answer: RawResponse | null;
}

function head(port: number, method: string, path: string, extra: string[] = []): string {
  return [`${method} ${path} HTTP/1.1`, `Host: 127.0.0.1:${port}`, `x-api-key: ${key}`, ...extra, '', ''].join('\r\n');
}

describe('labeldesk serve, stopped under every kind of request', () => {
  it(`answers whole every request sent before the signal, over ${ROUNDS} stops`, async () => {
    for (let round = 0; round < ROUNDS; round++) {
      const signal: NodeJS.Signals = round % 2 === 0 ? 'SIGTERM' : 'SIGINT';
      const served = await serve();
      const { port } = served;
      let signalled = false;
      const exchanges: Exchange[] = [];

      // Kept-alive PATCH loops: each sends its next PATCH once the last is answered.
      let patchesAnswered = 0;
      let loadOn!: () => void;
      const underLoad = new Promise<void>((resolve) => (loadOn = resolve));
      const patchers = Array.from({ length: PATCHERS }, async (_, p) => {
        const socket = await connect(port);
        for (let n = 0; ; n++) {
          const body = JSON.stringify({ labelReference: `SHP-STOP-${round}-${p}-${n}` });
          const answer = readResponse(socket);
          const request = head(port, 'PATCH', `/v2/labelReports/${reportIds[p]}`, ['content-type: application/json', `content-length: ${Buffer.byteLength(body)}`]) + body;
          await send(socket, request).catch(() => undefined);
          const exchange: Exchange = { what: `PATCH ${p}.${n}`, sentBefore: !signalled, answer: await answer };
          exchanges.push(exchange);
          if (exchange.answer === null) return socket.destroy();
          if (++patchesAnswered === PATCHERS * 2) loadOn();
          if (exchange.answer.headers.connection === 'close') return socket.destroy();
        }
      });

      // Large pages whose clients read nothing until after the signal.
      const readers = Array.from({ length: SLOW_READERS }, async (_, r) => {
        const socket = await connect(port);
        socket.pause();
        await send(socket, head(port, 'GET', `/v2/labelReports?pageSize=100&pageNumber=1&order=created[${r % 2 ? 'asc' : 'desc'}]`));
        return { socket, sentBefore: !signalled };
      });

      // Uploads sent a piece at a time; the signal follows their last piece.
      const uploads = Array.from({ length: UPLOADERS }, async (_, u) => {
        const socket = await connect(port);
        const answer = readResponse(socket);
        const body = Buffer.from(JSON.stringify({ labelReference: `SHP-UPLOAD-${round}-${u}`, customFields: Array.from({ length: 20 }, (_, f) => ({ customFieldId: `note${f}`, value: 'x'.repeat(900) })) }));
        await send(socket, head(port, 'PATCH', `/v2/labelReports/${reportIds[PATCHERS + u]}`, ['content-type: application/json', `content-length: ${body.length}`]));
        for (let at = 0; at < body.length; at += 4096) {
          await send(socket, body.subarray(at, at + 4096));
          await new Promise((resolve) => setImmediate(resolve));
        }
        return { socket, answer, sentBefore: !signalled };
      });

      await underLoad;
      const readersSent = await Promise.all(readers);
      const uploadsSent = await Promise.all(uploads);
      signalled = true;
      served.child.kill(signal);

      // The slow readers start reading once the stop is under way.
      const pages = readersSent.map(async ({ socket, sentBefore }, r) => {
        const answer = readResponse(socket);
        socket.resume();
        exchanges.push({ what: `page ${r}`, sentBefore, answer: await answer });
        socket.destroy();
      });
      const uploaded = uploadsSent.map(async ({ socket, answer, sentBefore }, u) => {
        exchanges.push({ what: `upload ${u}`, sentBefore, answer: await answer });
        socket.destroy();
      });
      await Promise.all([...patchers, ...pages, ...uploaded]);
      expect(await served.exited, served.stderr()).toEqual({ code: 0, signal: null });

      const owed = exchanges.filter((e) => e.sentBefore);
      expect(owed.length).toBeGreaterThanOrEqual(PATCHERS * 2 + SLOW_READERS + UPLOADERS);
      const cut = owed.filter((e) => e.answer === null).map((e) => e.what);
      expect(cut, `round ${round} (${signal}): requests sent before the signal and cut\n${served.stderr()}`).toEqual([]);
      for (const e of owed) {
        expect(e.answer!.status, `${e.what}: ${e.answer!.body.slice(0, 200)}`).toBe(200);
        const body = JSON.parse(e.answer!.body);
        if (e.what.startsWith('page')) expect(body.data).toHaveLength(100);
      }
    }
  }, 300_000);
});
