import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { NO_COMPANY_MESSAGE, startDesktopService } from '../../host/desktop-service';
import { runningLines } from '../../host/headless';
import { PERMISSIONS } from '../../schema/report';
import { openService } from '../../host/open-service';
import { column } from '../support/service-files';
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
    const service = openService(seeded);
    try {
      expect(service.homeCompany()).toBe('acme');
      expect(service.isEmpty()).toBe(false);
    } finally {
      service.close();
    }
    const empty = openService(path.join(dir, 'empty-check.sqlite'));
    try {
      expect(empty.homeCompany()).toBeNull();
      expect(empty.isEmpty()).toBe(true);
      // A company alone is no longer a fresh install, and is the home company while it owns nothing.
      empty.companies.upsert({ id: 'solo', name: 'Solo', shortCode: 'SOL' });
      expect(empty.isEmpty()).toBe(false);
      expect(empty.homeCompany()).toBe('solo');
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
      expect(new Set(session.body.permissions)).toEqual(new Set(PERMISSIONS));
      expect((await get(`${svc.url}/v2/labelReports`, svc.sessionKey)).status).toBe(200);
      expect(column(seeded, 'SELECT COUNT(*) FROM api_keys')).toEqual([0]);
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
      expect(svc.demo).toMatchObject({ reports: 2000 });
      // Keys of its own, shown once in the lines the headless start prints.
      expect(svc.demo!.keys).toHaveLength(4);
      const printed = runningLines(svc, dbFile).join('\n');
      for (const k of svc.demo!.keys) expect(printed).toContain(k.key);
      const keyOf = (name: string) => svc.demo!.keys.find((k) => k.name === name)!.key;
      expect((await get(`${svc.url}/v2/labelReports?pageSize=1`, keyOf('Acme demo (read only)'))).status).toBe(200);
      expect(svc.sessionKey).toMatch(/^ldk_/);
      expect(svc.companyId).toBe(svc.running.service.homeCompany());
      expect(column(dbFile, 'SELECT COUNT(*) FROM label_reports')).toEqual([2000]);
      expect((await get(`${svc.url}/v2/labelReports`, svc.sessionKey)).status).toBe(200);
    } finally {
      await svc.close();
    }
    // Only an empty database gets demo data.
    const again = await startDesktopService({ dbFile, port: 0, demoIfEmpty: true });
    try {
      expect(again.demo).toBeNull();
    } finally {
      await again.close();
    }
  }, 180_000);
});
