/**
 * What the run shares between test files: each file still gets a database of its own with the
 * data it asked for, the renderer is built once, and the worker's Chromium outlives a file's
 * close() while that file's contexts do not.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { openDatabase } from '../../db/database';
import { launchChromium } from '../e2e/browser';
import { builtUi, demoDatabase } from './run-cache';
import { column } from './service-files';

const dir = mkdtempSync(join(tmpdir(), 'labeldesk-run-cache-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const reportIds = (dbFile: string) => column(dbFile, 'SELECT id FROM label_reports ORDER BY id');

describe('demo databases', () => {
  it('are made once per size and seed; each caller gets a copy of its own, keys included', async () => {
    const [one, two, other] = ['one', 'two', 'other'].map((name) => join(dir, `${name}.sqlite`));
    const first = await demoDatabase(one, { reports: 4, seed: 91 });
    const template = join(inject('runDir'), 'demo-4-91', 'demo.sqlite');
    const made = statSync(template).mtimeMs;
    const second = await demoDatabase(two, { reports: 4, seed: 91 });
    expect(statSync(template).mtimeMs).toBe(made);
    expect(second).toEqual(first);
    expect(first.reports).toBe(4);
    expect(first.keys.length).toBeGreaterThan(0);
    expect(reportIds(one)).toHaveLength(4);
    expect(reportIds(two)).toEqual(reportIds(one));

    // A change to one copy is not in the other, nor in the next copy made.
    const changed = openDatabase(one);
    changed.prepare('CREATE TABLE changed_here (x)').run();
    changed.close();
    const three = join(dir, 'three.sqlite');
    await demoDatabase(three, { reports: 4, seed: 91 });
    const marked = (file: string) => column(file, "SELECT count(*) FROM sqlite_schema WHERE name = 'changed_here'")[0];
    expect([marked(one), marked(two), marked(three)]).toEqual([1, 0, 0]);
    expect(reportIds(three)).toEqual(reportIds(two));

    // Another seed is other data.
    await demoDatabase(other, { reports: 4, seed: 92 });
    expect(reportIds(other)).not.toEqual(reportIds(two));
  });

  it('are made by one worker while another that asks waits for it, and taken over when their maker has gone', async () => {
    // Another worker's claim, held by a process that lives until this test ends it.
    const claimDir = join(inject('runDir'), 'demo-3-93.claim');
    const maker = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore' });
    const ended = new Promise((resolve) => maker.on('exit', resolve));
    try {
      mkdirSync(claimDir);
      writeFileSync(join(claimDir, 'pid'), String(maker.pid));
      const file = join(dir, 'waited.sqlite');
      let settled = false;
      const asked = demoDatabase(file, { reports: 3, seed: 93 }).finally(() => (settled = true));
      await new Promise((resolve) => setImmediate(resolve));
      expect(settled).toBe(false);
      expect(existsSync(join(inject('runDir'), `demo-3-93.${process.pid}`)), 'nothing is made beside the claim').toBe(false);
      expect(existsSync(file)).toBe(false);

      maker.kill('SIGKILL');
      await ended;
      const summary = await asked;
      expect(summary.reports).toBe(3);
      expect(reportIds(file)).toHaveLength(3);
      expect(existsSync(claimDir), 'the claim is given up once the entry is made').toBe(false);
    } finally {
      if (maker.exitCode === null && maker.signalCode === null) maker.kill('SIGKILL');
    }
  });
});

describe('the built renderer', () => {
  it('is one build per set of compile-time constants', async () => {
    const ui = await builtUi();
    expect(existsSync(join(ui, 'index.html'))).toBe(true);
    expect(await builtUi()).toBe(ui);
  });
});

describe("the worker's Chromium", () => {
  it("is shared; a file's close() ends that file's contexts, not the browser", async () => {
    const browser = await launchChromium();
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.setContent('<p>here</p>');
    await browser.close();
    expect(browser.isConnected()).toBe(true);
    expect(browser.contexts()).toEqual([]);
    expect(page.isClosed()).toBe(true);
    expect(await launchChromium()).toBe(browser);
  });
});
