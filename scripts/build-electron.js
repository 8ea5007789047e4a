#!/usr/bin/env node
// Bundles the Electron side into CommonJS files electron-builder packs:
//   main/main.ts            → dist/main/main.cjs            (Electron main process)
//   host/service-process.ts → dist/main/service-process.cjs (utility process: HTTP + SQLite)
//   preload/preload.ts      → dist/preload/preload.cjs      (sandboxed preload: one file)
// electron and better-sqlite3 (native, rebuilt for Electron, unpacked from the asar) stay
// external; everything else is bundled.
import { build } from 'esbuild';
import { rmSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

const common = {
  bundle: true,
  platform: 'node',
  format: 'cjs',
  target: 'node20',
  external: ['electron', 'better-sqlite3'],
  sourcemap: 'linked',
  logLevel: 'warning',
  absWorkingDir: root,
  // ESM sources that read import.meta.url (e.g. DEFAULT_STATIC_DIR in host/start-service.ts)
  // get the bundle's own file URL, as they would have as separate modules.
  define: { 'import.meta.url': '__labeldesk_import_meta_url' },
  banner: { js: "const __labeldesk_import_meta_url = require('node:url').pathToFileURL(__filename).href;" },
};

const bundles = [
  { entryPoints: ['main/main.ts'], outfile: 'dist/main/main.cjs' },
  { entryPoints: ['host/service-process.ts'], outfile: 'dist/main/service-process.cjs' },
  // A sandboxed preload gets only a small require (electron's renderer modules); no node builtins.
  { entryPoints: ['preload/preload.ts'], outfile: 'dist/preload/preload.cjs', sourcemap: false, define: {}, banner: {} },
];

rmSync(path.join(root, 'dist/main'), { recursive: true, force: true });
rmSync(path.join(root, 'dist/preload'), { recursive: true, force: true });
const started = Date.now();
await Promise.all(bundles.map((b) => build({ ...common, ...b })));
console.log(`build:electron: ${bundles.map((b) => b.outfile).join(', ')} (${Date.now() - started} ms)`);
