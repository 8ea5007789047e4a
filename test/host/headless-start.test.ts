/** `npm start` on a machine without the Electron binary: the headless service, for the browser. */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { DATABASE_FILE_NAME } from '../../host/data-folder';
import { seedDatabase } from './seed';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
let dataDir: string;

beforeAll(async () => {
  dataDir = mkdtempSync(path.join(tmpdir(), 'labeldesk-start-'));
  // A seeded database, so this test does not wait for demo data (desktop-service.test.ts covers that).
  await seedDatabase(path.join(dataDir, DATABASE_FILE_NAME));
});
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

test('prints the URL with the key, serves the UI and /v2, and stops on Ctrl-C with exit 0', async () => {
  // An empty folder stands for the electron package, so this is a machine without Electron.
  const child = spawn(process.execPath, ['scripts/start.js', '--port', '0'], {
    cwd: root,
    env: { ...process.env, LABELDESK_DATA_DIR: dataDir, LABELDESK_SKIP_RENDERER_BUILD: '1', LABELDESK_ELECTRON_DIR: dataDir },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stderr.on('data', (c) => (err += c));
  const exit = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const match = await new Promise<RegExpMatchArray>((resolve, reject) => {
    child.stdout.on('data', (c) => {
      out += c;
      const m = out.match(/LabelDesk is running: open (http:\/\/127\.0\.0\.1:\d+)\/#key=(\S+)/);
      // The last line printed once running: every line before it has arrived.
      if (m && out.includes('Press Ctrl-C to stop.')) resolve(m);
    });
    void exit.then((code) => reject(new Error(`start.js exited (${code}):\n${out}\n${err}`)));
  });
  const [, base, encodedKey] = match;
  const key = decodeURIComponent(encodedKey);
  expect(out).toContain('Electron is not installed on this machine, so LabelDesk runs headless: the same service and UI, in your browser.');
  expect(out).toContain(`Local API base URL (for local tools, with an API key in the x-api-key header): ${base}`);
  expect(out).toContain(path.join(dataDir, DATABASE_FILE_NAME));

  const ui = await fetch(`${base}/`);
  expect(ui.status).toBe(200);
  if (existsSync(path.join(root, 'dist/renderer/index.html'))) {
    expect(ui.headers.get('content-type')).toMatch(/^text\/html/);
    expect(ui.headers.get('content-security-policy')).toContain("default-src 'none'");
  } else {
    expect(ui.headers.get('content-type')).toMatch(/^text\/plain/);
    expect(await ui.text()).toMatch(/not built/);
  }

  const list = await fetch(`${base}/v2/labelReports`, { headers: { 'x-api-key': key } });
  expect(list.status).toBe(200);
  const session = (await (await fetch(`${base}/local/session`, { headers: { 'x-api-key': key } })).json()) as { companyId: string };
  expect(session.companyId).toBe('acme');

  child.kill('SIGINT');
  expect(await exit).toBe(0);
  expect(out).toContain('LabelDesk stopped.');
});
