/**
 * electron-builder.yml is valid by electron-builder's own schema, has the must-haves, and the
 * build it points at exists and works (the service bundle runs under plain Node here).
 */
import { execFileSync, fork } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import Ajv from 'ajv';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const require = createRequire(import.meta.url);
// js-yaml comes with electron-builder; it ships no types of its own.
const yaml = require('js-yaml') as { load(text: string): unknown };

type Config = Record<string, any>;

function loadConfig(): Config {
  return yaml.load(readFileSync(path.join(root, 'electron-builder.yml'), 'utf8')) as Config;
}

const schema = JSON.parse(readFileSync(path.join(root, 'node_modules/app-builder-lib/scheme.json'), 'utf8'));
const ajv = new Ajv({ strict: false, allErrors: true });
const validate = ajv.compile(schema);

function errorsOf(config: unknown): string {
  return validate(config) ? '' : ajv.errorsText(validate.errors, { separator: '\n' });
}

function targets(platformConfig: Config | undefined): string[] {
  const list = platformConfig?.target;
  const items = Array.isArray(list) ? list : [list];
  return items.filter((t) => t !== undefined).map((t) => (typeof t === 'string' ? t : t.target));
}

describe('electron-builder.yml', () => {
  test('is valid by electron-builder’s configuration schema', () => {
    expect(errorsOf(loadConfig())).toBe('');
  });

  test('the same validation rejects broken configurations', () => {
    const typo = { ...loadConfig(), asarUnpak: ['x'] };
    expect(errorsOf(typo)).not.toBe('');
    const badTarget = loadConfig();
    badTarget.win.target = 42;
    expect(errorsOf(badTarget)).not.toBe('');
    const badNsis = loadConfig();
    badNsis.nsis.oneClick = 'no';
    expect(errorsOf(badNsis)).not.toBe('');
  });

  test('electron-builder’s own loader and validator accept it and refuse a typo’d key', async () => {
    const { getConfig, validateConfiguration } = require('app-builder-lib/out/util/config/config') as {
      getConfig(projectDir: string, configPath: string | null, configFromOptions: unknown): Promise<Config>;
      validateConfiguration(config: Config, debugLogger: { isEnabled: boolean; add(key: string, value: unknown): void }): Promise<void>;
    };
    const logger = { isEnabled: false, add: () => {} };
    const loaded = await getConfig(root, null, null);
    expect(loaded.appId).toBe('com.labeldesk.app');
    await expect(validateConfiguration(loaded, logger)).resolves.toBeUndefined();
    await expect(validateConfiguration({ ...loaded, asarUnpak: ['x'] }, logger)).rejects.toThrow(/asarUnpak/);
  });

  test('has the must-haves: ids, targets, native module unpacked and rebuilt', () => {
    const config = loadConfig();
    expect(config.appId).toBe('com.labeldesk.app');
    expect(config.productName).toBe('LabelDesk');
    expect(config.directories.output).toBe('release');
    expect(targets(config.win)).toContain('nsis');
    expect(targets(config.mac)).toContain('dmg');
    expect(targets(config.linux)).toEqual(expect.arrayContaining(['AppImage', 'deb']));
    expect(config.mac.category).toBe('public.app-category.business');
    expect(config.linux.category).toBe('Office');
    expect(config.linux.maintainer).toMatch(/\S+ <\S+@\S+>/);
    expect(config.asarUnpack).toContain('**/node_modules/better-sqlite3/**');
    expect(config.npmRebuild).toBe(true);
    expect(config.files).toEqual(expect.arrayContaining(['package.json']));
    expect(config.files.some((f: string) => f.startsWith('dist/main'))).toBe(true);
    if (config.mac.entitlements) expect(existsSync(path.join(root, config.mac.entitlements))).toBe(true);
  });
});

describe('the build electron-builder packs', () => {
  beforeAll(() => {
    execFileSync(process.execPath, ['scripts/build-electron.js'], { cwd: root, stdio: 'pipe' });
  }, 120_000);

  test('package.json main is the built main bundle; the service and preload bundles exist', () => {
    const pkg = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8'));
    expect(pkg.main).toBe('dist/main/main.cjs');
    for (const file of [pkg.main, 'dist/main/service-process.cjs', 'dist/preload/preload.cjs']) {
      expect(existsSync(path.join(root, file)), file).toBe(true);
    }
  });

  test('electron and better-sqlite3 stay external', () => {
    const main = readFileSync(path.join(root, 'dist/main/main.cjs'), 'utf8');
    expect(main).toMatch(/require\("electron"\)/);
    const service = readFileSync(path.join(root, 'dist/main/service-process.cjs'), 'utf8');
    expect(service).toMatch(/require\("better-sqlite3"\)/);
    expect(service).not.toMatch(/require\("electron"\)/);
  });

  test('the preload is one file that requires only electron and exposes one function', () => {
    const preload = readFileSync(path.join(root, 'dist/preload/preload.cjs'), 'utf8');
    const requires = [...preload.matchAll(/require\("([^"]+)"\)/g)].map((m) => m[1]);
    expect(new Set(requires)).toEqual(new Set(['electron']));
    expect(preload).toContain('exposeInMainWorld');
    expect(preload).toContain('labeldesk:get-connection');
  });

  describe('the service bundle runs', () => {
    let dir: string;
    beforeAll(() => {
      dir = mkdtempSync(path.join(tmpdir(), 'labeldesk-bundle-'));
    });
    afterAll(() => rmSync(dir, { recursive: true, force: true }));

    test('starts on an empty database, answers, and shuts down with exit code 0', async () => {
      const child = fork(path.join(root, 'dist/main/service-process.cjs'), ['--db', path.join(dir, 'x.sqlite'), '--port', '0'], {
        stdio: 'pipe',
      });
      const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
      const ready = await new Promise<any>((resolve, reject) => {
        child.once('message', resolve);
        child.once('exit', (code) => reject(new Error(`exited ${code}`)));
      });
      expect(ready).toMatchObject({ type: 'ready', sessionKey: null, companyId: null });
      expect(ready.message).toMatch(/no company/);
      const res = await fetch(`${ready.url}/v2/labelReports`);
      expect(res.status).toBe(401);
      child.send({ type: 'shutdown' });
      expect(await exited).toBe(0);
    });
  });
});
