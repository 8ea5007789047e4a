/**
 * End to end: Settings › Backups in real Chromium at 1280×720, against the service as the
 * desktop app runs it (its session key may manage keys). Back up now takes a verified backup,
 * which the list and the last good backup show and which lies in the folder; a backup that
 * fails is listed with why, and the header then warns until a good one is taken; a key without
 * apiKeys:manage is told the backups are not its to see.
 */
import { existsSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDesktopService, type DesktopService } from '../../host/desktop-service';
import { launchChromium, prepare, shot, shownText, waitGone, watchProblems } from './browser';

let dir: string;
let dbFile: string;
let desk: DesktopService;
let browser: Browser;
let readKey: string;
const problems: string[] = [];

beforeAll(async () => {
  const prepared = await prepare('e2e-backups', { reports: 30, seed: 4 });
  dir = prepared.dir;
  dbFile = prepared.dbFile;
  const key = prepared.summary.keys.find((k) => k.companyId === 'acme' && !k.permissions.includes('apiKeys:manage'));
  if (!key) throw new Error('the demo data has no acme key without apiKeys:manage');
  readKey = key.key;
  desk = await startDesktopService({ dbFile, port: 0, companyId: 'acme', staticDir: prepared.uiDir });
  browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
  await desk?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

async function openSettings(key: string): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 720 } });
  const page = await context.newPage();
  // The failed backup's answer is shown, not a problem of the page.
  watchProblems(page, problems);
  await page.goto(`${desk.url}/?view=settings#key=${encodeURIComponent(key)}`);
  await page.getByTestId('backups').waitFor();
  return { context, page };
}

describe('Settings › Backups in Chromium', () => {
  it('backs up now, lists it verified; a failed backup is listed with why and the header warns until a good one', async () => {
    const { context, page } = await openSettings(desk.sessionKey!);
    try {
      const section = page.getByTestId('backups');
      await expect.poll(() => section.getByTestId('backup-last-good').textContent()).toBe('No good backup yet.');
      expect(await page.getByTestId('backup-warning').count()).toBe(0);

      await section.getByTestId('back-up-now').click();
      const list = section.getByTestId('backup-list');
      await list.waitFor();
      await expect.poll(() => list.locator('tbody tr').first().textContent()).toMatch(/Back up nowVerified/);
      await expect.poll(() => section.getByTestId('backup-last-good').textContent()).toMatch(/^Last good backup: .*30 reports.*labeldesk-\d{4}-\d\d-\d\dT\d{6}Z\.sqlite$/);
      const backups = join(dir, 'backups');
      expect(readdirSync(backups).filter((n) => n.endsWith('.sqlite'))).toHaveLength(1);
      await shot(page, 'backups-verified');

      // A file lies where the folder was: the folder cannot be written.
      rmSync(backups, { recursive: true });
      writeFileSync(backups, 'not a folder');
      await section.getByTestId('back-up-now').click();
      await expect.poll(() => list.locator('tbody tr').first().textContent()).toMatch(/Back up nowFailed: the folder .* cannot be written \(a part of its path is a file, not a folder\)/);
      const warning = page.getByTestId('backup-warning');
      await warning.waitFor();
      expect(await shownText(warning)).toBe('Backup failed');
      expect(await warning.textContent()).toMatch(/^Backup failed: The last backup failed/);
      expect(await warning.getAttribute('title')).toMatch(/^The last backup failed \(.*\): the folder .* cannot be written \(a part of its path is a file/);
      await shot(page, 'backups-failed');

      rmSync(backups);
      await section.getByTestId('back-up-now').click();
      await waitGone(warning);
      expect(await list.locator('tbody tr').count()).toBe(3);
      expect(existsSync(backups)).toBe(true);
    } finally {
      await context.close();
    }
  });

  it('tells a key without apiKeys:manage that backups are not its to see, and asks for none', async () => {
    const asked: string[] = [];
    const context = await browser.newContext({ viewport: { width: 1280, height: 720 } });
    const page = await context.newPage();
    page.on('request', (r) => {
      if (r.url().includes('/local/backups')) asked.push(r.url());
    });
    try {
      await page.goto(`${desk.url}/?view=settings#key=${encodeURIComponent(readKey)}`);
      await page.getByTestId('backups').waitFor();
      expect(await page.getByTestId('backups').textContent()).toContain('Backups are shown to administrators');
      expect(asked).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('left the page without problems', () => {
    expect(problems).toEqual([]);
  });
});
