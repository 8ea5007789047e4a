/**
 * Imports run downhill: a folder imports its own layer and the layers below it, never one above.
 *
 *   contract, schema, sense, query,   pure: each other only
 *   model
 *   demo                              pure: schema and sense
 *   db                                the pure ones
 *   service                           db and the pure ones
 *   jobs                              service, db, the pure ones
 *   sync, webhooks, alarms            jobs and below; not each other
 *   http                              sync, webhooks, jobs and below
 *   host, cli                         http and below, and each other (composition, command line)
 *   main                              host and contract (Electron's main process)
 *   preload                           contract
 *   renderer                          contract, schema and sense (it runs in the browser)
 *
 * Every .ts/.tsx file of the application is read (tests, benchmarks and scripts are not part of
 * it); each relative import, `export … from` and `import('…')` counts, type-only ones too, as
 * they tie the two folders' code together all the same. None may run uphill.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { posix } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, test } from 'vitest';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** Not the application: its tests, benchmarks, build scripts, packages and build output. */
const NOT_APPLICATION = new Set(['test', 'bench', 'scripts', 'node_modules', 'dist', '.stryker-tmp']);

const PURE_CORE = ['contract', 'schema', 'sense', 'query', 'model'];
const PURE = [...PURE_CORE, 'demo'];
const BELOW_JOBS = [...PURE, 'db', 'service'];
const BELOW_HTTP = [...BELOW_JOBS, 'jobs', 'sync', 'webhooks', 'alarms'];
const BELOW_COMPOSITION = [...BELOW_HTTP, 'http'];

/** For each top-level folder, the folders it may import besides itself. */
const MAY_IMPORT: Readonly<Record<string, readonly string[]>> = {
  contract: PURE_CORE,
  schema: PURE_CORE,
  sense: PURE_CORE,
  query: PURE_CORE,
  model: PURE_CORE,
  demo: ['schema', 'sense'],
  db: PURE,
  service: [...PURE, 'db'],
  jobs: BELOW_JOBS,
  sync: [...BELOW_JOBS, 'jobs'],
  webhooks: [...BELOW_JOBS, 'jobs'],
  alarms: [...BELOW_JOBS, 'jobs'],
  http: BELOW_HTTP,
  host: [...BELOW_COMPOSITION, 'cli'],
  cli: [...BELOW_COMPOSITION, 'host'],
  main: ['host', 'contract'],
  preload: ['contract'],
  // The browser shows excursions by the engine's own rules (pure functions, no I/O).
  renderer: ['contract', 'schema', 'sense'],
};

/** Files at the top of the repository that any layer may read: data, not code. */
const ROOT_DATA = new Set(['package.json']);

interface SourceFile {
  /** From the repository's top, with forward slashes. */
  file: string;
  /** The module specifiers as written. */
  imports: readonly string[];
}

interface Uphill {
  file: string;
  specifier: string;
  /** The imported module, from the repository's top, without its extension. */
  imports: string;
  from: string;
  to: string;
}

/** The module specifiers a source text imports: static, `export … from`, dynamic and type-only. */
function importsOf(text: string): string[] {
  return ts.preProcessFile(text, true, true).importedFiles.map((f) => f.fileName);
}

/** The relative imports among `files` that break the order of layers, in the order met. */
function uphillImports(files: readonly SourceFile[], mayImport: Readonly<Record<string, readonly string[]>> = MAY_IMPORT): Uphill[] {
  const found: Uphill[] = [];
  for (const { file, imports } of files) {
    const from = file.split('/')[0];
    // A file at the top of the repository (a tool's config) belongs to no layer.
    if (!file.includes('/')) continue;
    for (const specifier of imports) {
      if (!specifier.startsWith('.')) continue;
      const target = posix.normalize(posix.join(posix.dirname(file), specifier));
      const to = target.includes('/') ? target.split('/')[0] : target;
      if (to === from || (!target.includes('/') && ROOT_DATA.has(target))) continue;
      const allowed = mayImport[from];
      if (allowed && allowed.includes(to)) continue;
      found.push({ file, specifier, imports: target.replace(/\.(d\.ts|tsx?|jsx?|mjs|cjs)$/, ''), from, to });
    }
  }
  return found;
}

function describeUphill(u: Uphill): string {
  const allowed = MAY_IMPORT[u.from];
  const rule = allowed ? `${u.from} may import only ${[u.from, ...allowed].join(', ')}` : `${u.from} is no known layer: give it a place in MAY_IMPORT`;
  return `${u.file} imports '${u.specifier}' (${u.from} → ${u.to}); ${rule}`;
}

function applicationFiles(dir = ''): string[] {
  const files: string[] = [];
  for (const entry of readdirSync(posix.join(ROOT, dir), { withFileTypes: true })) {
    const path = dir ? `${dir}/${entry.name}` : entry.name;
    if (entry.isDirectory()) {
      if (!NOT_APPLICATION.has(entry.name) && !entry.name.startsWith('.')) files.push(...applicationFiles(path));
    } else if (/\.tsx?$/.test(entry.name)) {
      files.push(path);
    }
  }
  return files;
}


describe('imports run downhill', () => {
  const files = applicationFiles().map((file) => ({ file, imports: importsOf(readFileSync(posix.join(ROOT, file), 'utf8')) }));
  const uphill = uphillImports(files);

  test('the application is read: every layer that exists has files, and each file a layer', () => {
    expect(files.length).toBeGreaterThan(100);
    for (const folder of ['contract', 'schema', 'sense', 'query', 'demo', 'db', 'service', 'sync', 'webhooks', 'http', 'host', 'cli', 'main', 'preload', 'renderer']) {
      expect(files.some((f) => f.file.startsWith(`${folder}/`)), `${folder}/ has no .ts file`).toBe(true);
    }
    const layerless = files.filter((f) => f.file.includes('/') && !(f.file.split('/')[0] in MAY_IMPORT)).map((f) => f.file);
    expect(layerless, 'files in a folder with no place in MAY_IMPORT').toEqual([]);
  });

  test('no import runs uphill', () => {
    expect(uphill.map(describeUphill), 'imports that run uphill').toEqual([]);
  });
});

describe('the checker', () => {
  test('reads static, re-exported, dynamic and type-only imports', () => {
    const text = [
      "import { a } from '../db/a';",
      "import type { B } from '../service/b';",
      "import * as c from './c';",
      "export { d } from '../sync/d';",
      "export * from '../http/e';",
      "const f = await import('../host/f');",
      "import 'node:fs';",
      "// import { g } from '../cli/g';",
      "const s = \"import { h } from '../cli/h'\";",
    ].join('\n');
    expect(importsOf(text)).toEqual(['../db/a', '../service/b', './c', '../sync/d', '../http/e', '../host/f', 'node:fs']);
  });

  test('an uphill import in a made-up file list is caught, with its file and import', () => {
    const found = uphillImports([
      { file: 'db/report-store.ts', imports: ['./rows', '../schema/report', '../service/label-reports', 'better-sqlite3'] },
      { file: 'service/reports.ts', imports: ['../db/report-store', '../sense'] },
      { file: 'sync/pull.ts', imports: ['../jobs/queue', '../webhooks/sender'] },
      { file: 'renderer/lib/view.ts', imports: ['../../schema/report', '../../db/report-store.ts'] },
      { file: 'contract/version.ts', imports: ['../package.json'] },
      { file: 'vitest.config.ts', imports: ['./service/anything'] },
    ]);
    expect(found).toEqual([
      { file: 'db/report-store.ts', specifier: '../service/label-reports', imports: 'service/label-reports', from: 'db', to: 'service' },
      { file: 'sync/pull.ts', specifier: '../webhooks/sender', imports: 'webhooks/sender', from: 'sync', to: 'webhooks' },
      { file: 'renderer/lib/view.ts', specifier: '../../db/report-store.ts', imports: 'db/report-store', from: 'renderer', to: 'db' },
    ]);
    expect(describeUphill(found[0])).toContain("db/report-store.ts imports '../service/label-reports' (db → service)");
  });

  test('a folder with no layer may import nothing outside itself', () => {
    expect(uphillImports([{ file: 'tools/x.ts', imports: ['./y', '../schema/report'] }])).toEqual([
      { file: 'tools/x.ts', specifier: '../schema/report', imports: 'schema/report', from: 'tools', to: 'schema' },
    ]);
  });

  test('each layer may import the layers below it and none above', () => {
    const order = [PURE_CORE, ['db'], ['service'], ['jobs'], ['http'], ['host', 'cli']];
    for (const [level, folders] of order.entries()) {
      for (const from of folders) {
        for (const below of order.slice(0, level).flat()) expect(MAY_IMPORT[from], `${from} → ${below}`).toContain(below);
        for (const above of order.slice(level + 1).flat()) expect(MAY_IMPORT[from], `${from} → ${above}`).not.toContain(above);
      }
    }
    expect(MAY_IMPORT.sync).not.toContain('webhooks');
    expect(MAY_IMPORT.webhooks).not.toContain('sync');
  });
});
