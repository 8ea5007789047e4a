/**
 * A request whose client has gone away does no work it has not started. A scrolling table
 * abandons most of the pages it asked for while the service is busy reading another one: those
 * requests are dropped without a query when their turn comes, and the next live request is
 * answered at once. A streamed page stops being read when its client leaves, and a write waiting
 * for a busy database stops waiting.
 *
 * The service counts its list and retrieve reads (a test observer): the assertions are about
 * which reads happened, never about how long anything took. The service is held busy by the
 * observer itself, which sends the burst of abandoned requests while the first read runs, as a
 * slow query would; so the abandoned requests are queued for certain, on any machine.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import type net from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { openDatabase } from '../../db/database';
import { DEFAULT_LIMITS } from '../../host/start-service';
import type { ReportRead } from '../../service/label-reports';
import { openService, type Service } from '../../host/open-service';
import { serviceApp } from '../../host/service-app';
import { connect, readResponse } from '../support/raw-http';
import { COMPANIES, makeReport, series, T0 } from '../support/service-fixture';

const REPORTS = Number(process.env.ABANDONED_TEST_REPORTS ?? 3000);
const BURST = 30;
const BIG_ID = 'big-report';

let dir: string;
let service: Service;
let app: FastifyInstance;
let port: number;
let key: string;
let reads: ReportRead[] = [];
/** Runs (once) inside the next list read: the moment the service is busy. */
let duringNextListRead: (() => void) | null = null;
let abandoned = 0;
let abandonedListeners: (() => boolean)[] = [];

/** Resolves once `count` requests have been abandoned since the test began. */
function abandonedCount(count: number): Promise<void> {
  return new Promise((resolve) => {
    const check = () => {
      if (abandoned < count) return false;
      resolve();
      return true;
    };
    if (!check()) abandonedListeners.push(check);
  });
}

function reportNumber(i: number) {
  return makeReport(`r${String(i).padStart(5, '0')}`, {
    created: new Date(Date.UTC(2026, 0, 1) + i * 60_000).toISOString(),
    status: i % 3 === 0 ? 'active' : 'completed',
    labelReference: `PO-${10_000 + ((i * 7919) % 90_000)}`,
    // Enough datapoints that a page in output=normal is megabytes, far more than a socket buffers.
    reportedSenseData: { datapoints: series(T0, 600, Array.from({ length: 150 }, (_, k) => 4 + ((i + k) % 7))) },
  });
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'labeldesk-abandoned-'));
  service = openService(join(dir, 'labeldesk.sqlite'), {
    // As the running service: SQLite's own wait for a lock blocks the thread, so it is kept short.
    busyTimeoutMs: 20,
    onRead: (read) => {
      reads.push(read);
      if (read === 'listPage' && duringNextListRead) {
        const during = duringNextListRead;
        duringNextListRead = null;
        during();
      }
    },
  });
  for (const company of COMPANIES) service.companies.upsert(company);
  key = service.apiKeys.create('acme', ['labelReports:read', 'labelReports:update'], 'test').key;
  // As `labeldesk import` writes them: one bundle, the listing built once after the writes.
  const labelReports = [
    ...Array.from({ length: REPORTS }, (_, i) => reportNumber(i)),
    makeReport(BIG_ID, { status: 'completed', reportedSenseData: { datapoints: series(T0, 60, Array.from({ length: 10_000 }, (_, k) => 4 + (k % 5))) } }),
  ];
  const imported = await service.importBundle(Readable.from([Buffer.from(JSON.stringify({ version: 1, companies: COMPANIES, labelReports }))]));
  if (!imported.ok) throw new Error(`the test's bundle was refused: ${JSON.stringify(imported.problems.slice(0, 3))}`);
  ({ app } = serviceApp(service, {
    limits: DEFAULT_LIMITS,
    onAbandoned: () => {
      abandoned++;
      abandonedListeners = abandonedListeners.filter((check) => !check());
    },
  }));
  await app.listen({ host: '127.0.0.1', port: 0 });
  port = (app.server.address() as net.AddressInfo).port;
});

afterAll(async () => {
  await app?.close();
  service?.close();
  rmSync(dir, { recursive: true, force: true });
});

beforeEach(() => {
  reads = [];
  abandoned = 0;
  abandonedListeners = [];
});

function get(path: string): string {
  return `GET ${path} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nx-api-key: ${key}\r\n\r\n`;
}

/** Deep pages of searches that scan and sort many reports, as a table being dragged asks for. */
function abandonedPath(k: number): string {
  if (k % 3 === 2) return `/v2/labelReports/${BIG_ID}`;
  const filter = encodeURIComponent(`labelReference[ilike]%po-%,alert.level[gte]0`);
  return `/v2/labelReports?filter=${filter}&order=label.name[asc]&pageNumber=${5 + k}&pageSize=100&output=minimal`;
}

describe('requests whose client has gone away', () => {
  it('are dropped without a query when their turn comes, and the next request is answered at once', async () => {
    const doomed = await Promise.all(Array.from({ length: BURST }, () => connect(port)));
    const next = await connect(port);
    // While the service reads the first page, the table scrolls on: it asks for page after page
    // and abandons each (closes its connection), then asks for the page where it stopped.
    duringNextListRead = () => {
      for (const [k, socket] of doomed.entries()) {
        socket.write(get(abandonedPath(k)));
        socket.destroy();
      }
      next.write(get('/v2/labelReports?filter=status[eq]active&order=created[desc]&pageSize=5&output=minimal'));
    };
    const first = await fetch(`http://127.0.0.1:${port}/v2/labelReports?pageSize=1&output=minimal`, { headers: { 'x-api-key': key } });
    expect(first.status).toBe(200);
    expect((await first.json()).data).toHaveLength(1);

    const answer = await readResponse(next);
    next.destroy();
    await abandonedCount(BURST);
    expect(abandoned).toBe(BURST);
    // Only the first page and the next one were read: none of the abandoned lists or retrieves.
    expect(reads.filter((r) => r !== 'listChunk')).toEqual(['listPage', 'listPage']);

    expect(answer?.status).toBe(200);
    const active = Array.from({ length: REPORTS }, (_, i) => i).filter((i) => i % 3 === 0);
    expect(JSON.parse(answer!.body)).toMatchObject({
      totalDocuments: active.length,
      data: active.slice(-5).reverse().map((i) => ({ id: `r${String(i).padStart(5, '0')}`, status: 'active' })),
    });
  });

  it('stops reading a streamed page when its client leaves', async () => {
    const pageSize = Math.min(REPORTS, 2000);
    const socket = await connect(port);
    socket.write(get(`/v2/labelReports?pageSize=${pageSize}&output=normal`));
    // The client reads the first reports of the answer, then closes the connection.
    await new Promise<void>((resolve) => {
      let received = 0;
      socket.on('data', (data: Buffer) => {
        received += data.length;
        if (received > 50_000) resolve();
      });
    });
    socket.destroy();
    await abandonedCount(1);
    const chunks = reads.filter((r) => r === 'listChunk').length;
    // Chunks of 5 reports (tens of KiB): the whole page is 400 of them, and the socket's buffers
    // would take dozens; the service stopped within a few chunks of the client leaving.
    expect(reads.filter((r) => r === 'listPage')).toHaveLength(1);
    expect(chunks).toBeGreaterThan(0);
    expect(chunks).toBeLessThan(10);
  });

  it('stops a write waiting for a busy database, which then changes nothing', async () => {
    const other = openDatabase(join(dir, 'labeldesk.sqlite'));
    other.exec('BEGIN IMMEDIATE');
    try {
      const socket = await connect(port);
      const body = JSON.stringify({ labelReference: 'NEVER' });
      socket.write(
        `PATCH /v2/labelReports/r00001 HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nx-api-key: ${key}\r\n` +
          `content-type: application/json\r\ncontent-length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
      );
      socket.destroy();
      // The wait gives up while the other writer still holds the database.
      await abandonedCount(1);
    } finally {
      other.exec('COMMIT');
      other.close();
    }
    const res = await fetch(`http://127.0.0.1:${port}/v2/labelReports/r00001`, { headers: { 'x-api-key': key } });
    expect((await res.json()).labelReference).toBe(reportNumber(1).labelReference);
  });
});
