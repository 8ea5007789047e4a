#!/usr/bin/env node
// `npm start`: the desktop app when the Electron binary is installed; otherwise the same
// service and UI, headless, for the browser.
//
// Options: --headless (even when Electron is present), --port N, --db FILE, --no-demo.
// Environment: LABELDESK_DATA_DIR (data folder), LABELDESK_PORT, LABELDESK_SKIP_RENDERER_BUILD=1,
// ELECTRON_SKIP_BINARY_DOWNLOAD=1 (never fetch Electron), LABELDESK_ELECTRON_DIR.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';

// Where the electron package is; LABELDESK_ELECTRON_DIR points elsewhere (tests use an empty one).
const electronDir = process.env.LABELDESK_ELECTRON_DIR ?? path.join(root, 'node_modules', 'electron');

/** The Electron executable, found without requiring 'electron' (its index.js would try to download). */
function electronBinary() {
  const dir = electronDir;
  const pathFile = path.join(dir, 'path.txt');
  if (!existsSync(pathFile)) return null;
  const relative = readFileSync(pathFile, 'utf8').trim();
  if (!relative) return null;
  const binary = path.join(dir, 'dist', relative);
  return existsSync(binary) ? binary : null;
}

function newestMtime(target) {
  if (!existsSync(target)) return 0;
  const stat = statSync(target);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = stat.mtimeMs;
  for (const entry of readdirSync(target)) newest = Math.max(newest, newestMtime(path.join(target, entry)));
  return newest;
}

/** The built UI is missing or older than its sources (the renderer and the shared code it imports). */
function rendererIsStale() {
  const built = path.join(root, 'dist', 'renderer', 'index.html');
  if (!existsSync(built)) return true;
  const sources = ['renderer', 'schema', 'sense', 'contract'].map((d) => newestMtime(path.join(root, d)));
  return Math.max(...sources) > statSync(built).mtimeMs;
}

function run(script) {
  console.log(`> npm run ${script}`);
  const result = spawnSync(npm, ['run', script], { cwd: root, stdio: 'inherit', shell: process.platform === 'win32' });
  return result.status === 0;
}

/** Builds the UI when needed; a failed build is reported and the service runs without the UI. */
function ensureRenderer() {
  if (process.env.LABELDESK_SKIP_RENDERER_BUILD === '1') return;
  if (!rendererIsStale()) return;
  if (!existsSync(path.join(root, 'renderer', 'vite.config.ts'))) {
    console.warn('The UI sources are not here (renderer/vite.config.ts); the service runs without the UI.');
    return;
  }
  if (!run('build:renderer')) console.warn('The UI did not build; the service runs without it (see the errors above).');
}

/**
 * Electron fetches its binary on first use, not at install. Fetch it now, once, unless told not
 * to; where it cannot be downloaded the app runs headless.
 */
function fetchElectron() {
  if (process.env.ELECTRON_SKIP_BINARY_DOWNLOAD === '1') return null;
  const installer = path.join(electronDir, 'install.js');
  if (!existsSync(installer)) return null;
  console.log('Fetching the Electron binary…');
  const result = spawnSync(process.execPath, [installer], { cwd: root, stdio: 'ignore', timeout: 300_000 });
  return result.status === 0 ? electronBinary() : null;
}

const electron = args.includes('--headless') ? null : (electronBinary() ?? fetchElectron());
if (electron) {
  ensureRenderer();
  if (!run('build:electron')) process.exit(1);
  const child = spawn(electron, [root, ...args], { cwd: root, stdio: 'inherit' });
  // Ctrl-C reaches Electron through the terminal's process group; it quits cleanly on its own.
  process.on('SIGINT', () => {});
  process.on('SIGTERM', () => child.kill('SIGTERM'));
  child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
} else {
  if (!args.includes('--headless')) {
    console.log('Electron is not installed on this machine, so LabelDesk runs headless: the same service and UI, in your browser.');
  }
  ensureRenderer();
  const { register } = await import('tsx/esm/api');
  register();
  const { main } = await import('../host/headless.ts');
  await main(args.filter((a) => a !== '--headless'));
}
