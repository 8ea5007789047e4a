import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { openDatabase } from '../../db/database';
import { homeCompany, isDatabaseEmpty } from '../../host/home-company';
import { NO_COMPANY_MESSAGE, startDesktopService } from '../../host/desktop-service';
import { seedDatabase } from './seed';

let dir: string;
let seeded: string;
beforeAll(async () => {
  dir = mkdtempSync(path.join(tmpdir(), 'labeldesk-desktop-'));
  seeded = path.join(dir, 'seeded.sqlite');
  await seedDatabase(seeded);
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function get(url: string, key: string | null) {
  const res = await fetch(url, { headers: key ? { 'x-api-key': key } : {} });
  return { status: res.status, body: (await res.json()) as any };
}

describe('home company', () => {
  test('the company that owns the most reports; none on an empty database', () => {
    const db = openDatabase(seeded);
    try {
      expect(homeCompany(db)).toBe('acme');
      expect(isDatabaseEmpty(db)).toBe(false);
    } finally {
      db.close();
    }
    const empty = openDatabase(path.join(dir, 'empty-check.sqlite'));
    try {
      expect(homeCompany(empty)).toBeNull();
      expect(isDatabaseEmpty(empty)).toBe(true);
    } finally {
      empty.close();
    }
  });
});

describe('startDesktopService', () => {
  test('acts as the home company with a session key that works and is never stored', async () => {
    const svc = await startDesktopService({ dbFile: seeded, port: 0 });
    try {
      expect(svc.companyId).toBe('acme');
      expect(svc.sessionKey).toMatch(/^ldk_/);
      expect(svc.message).toBeNull();
      const session = await get(`${svc.url}/local/session`, svc.sessionKey);
      expect(session.status).toBe(200);
      expect(session.body).toMatchObject({ companyId: 'acme' });
      expect(new Set(session.body.permissions)).toEqual(new Set(['labelReports:read', 'labelReports:update', 'apiKeys:manage']));
      expect((await get(`${svc.url}/v2/labelReports`, svc.sessionKey)).status).toBe(200);
      const stored = svc.running.service.db.prepare('SELECT COUNT(*) AS n FROM api_keys').get() as { n: number };
      expect(stored.n).toBe(0);
    } finally {
      await svc.close();
    }
  });

  test('a given company is used; an unknown one is refused and the database is closed again', async () => {
    const svc = await startDesktopService({ dbFile: seeded, port: 0, companyId: 'nordic' });
    try {
      expect((await get(`${svc.url}/local/session`, svc.sessionKey)).body.companyId).toBe('nordic');
    } finally {
      await svc.close();
    }
    await expect(startDesktopService({ dbFile: seeded, port: 0, companyId: 'nobody' })).rejects.toThrow(/no company 'nobody'/);
  });

  test('an empty database without demo data starts without a key and says why', async () => {
    const svc = await startDesktopService({ dbFile: path.join(dir, 'empty.sqlite'), port: 0, demoIfEmpty: false });
    try {
      expect(svc.sessionKey).toBeNull();
      expect(svc.companyId).toBeNull();
      expect(svc.message).toBe(NO_COMPANY_MESSAGE);
      expect((await get(`${svc.url}/v2/labelReports`, null)).status).toBe(401);
    } finally {
      await svc.close();
    }
  });

  test('a taken port falls back to a free one, unless the port is strict', async () => {
    const blocker: Server = createServer();
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
    const taken = (blocker.address() as { port: number }).port;
    try {
      const svc = await startDesktopService({ dbFile: seeded, port: taken });
      try {
        expect(svc.port).not.toBe(taken);
        expect(svc.url).toBe(`http://127.0.0.1:${svc.port}`);
      } finally {
        await svc.close();
      }
      await expect(startDesktopService({ dbFile: seeded, port: taken, strictPort: true })).rejects.toMatchObject({ code: 'EADDRINUSE' });
    } finally {
      blocker.close();
    }
  });

  test('an empty database gets demo data when asked, and a session for its busiest company', async () => {
    const dbFile = path.join(dir, 'demo.sqlite');
    const svc = await startDesktopService({ dbFile, port: 0, demoIfEmpty: true });
    try {
      expect(svc.demoCreated).toBe(true);
      expect(svc.sessionKey).toMatch(/^ldk_/);
      expect(svc.companyId).toBe(homeCompany(svc.running.service.db));
      const reports = svc.running.service.db.prepare('SELECT COUNT(*) AS n FROM label_reports').get() as { n: number };
      expect(reports.n).toBe(2000);
      expect((await get(`${svc.url}/v2/labelReports`, svc.sessionKey)).status).toBe(200);
    } finally {
      await svc.close();
    }
    // Only an empty database gets demo data.
    const again = await startDesktopService({ dbFile, port: 0, demoIfEmpty: true });
    try {
      expect(again.demoCreated).toBe(false);
    } finally {
      await again.close();
    }
  }, 180_000);
});
