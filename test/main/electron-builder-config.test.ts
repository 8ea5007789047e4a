/**
 * electron-builder.yml is valid by electron-builder's own schema, has the must-haves, and the
 * build it points at exists and works (the service bundle runs under plain Node here). The
 * labeldesk command of the installed app: the bundled command line runs under Node, the shim
 * finds the app from its links, and the deb/rpm scripts link and unlink it (run in a temp
 * folder standing in for /).
 */
import { execFileSync, fork, spawnSync } from 'node:child_process';
import { chmodSync, copyFileSync, existsSync, lstatSync, mkdirSync, mkdtempSync, readFileSync, readlinkSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
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

const bundleCliModule = require(path.join(root, 'build/bundle-cli.cjs')) as {
  bundleCli(): Promise<string[]>;
  default: unknown;
  CLI_BUNDLE: string;
  APP_ENTRY: string;
};
const appEntry = require(path.join(root, 'build/app-entry.cjs')) as { MARKER: string; cliArguments(argv: string[]): string[] | null };

/** The install scripts as electron-builder writes them: its macros filled in, as FpmTarget does. */
function rendered(file: string): string {
  const macros: Record<string, string> = { executable: 'labeldesk', sanitizedProductName: 'LabelDesk', productFilename: 'LabelDesk' };
  return readFileSync(path.join(root, file), 'utf8').replace(/\$\{([a-zA-Z]+)\}/g, (_, name: string) => {
    if (!(name in macros)) throw new Error(`${file}: macro ${name} is not defined`);
    return macros[name];
  });
}

describe('the labeldesk command of the installed app', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'labeldesk-command-'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  test('electron-builder.yml bundles the command line, enters through the dispatching entry and ships the shim', () => {
    const config = loadConfig();
    expect(config.beforePack).toBe('build/bundle-cli.cjs');
    expect(typeof bundleCliModule.default).toBe('function');
    expect(config.extraMetadata.main).toBe(bundleCliModule.APP_ENTRY);
    expect(config.files).toEqual(expect.arrayContaining([bundleCliModule.CLI_BUNDLE, bundleCliModule.APP_ENTRY]));
    for (const platform of ['linux', 'mac']) {
      expect(config[platform].extraResources, platform).toContainEqual({ from: 'build/bin/labeldesk', to: 'bin/labeldesk' });
    }
    expect(existsSync(path.join(root, 'build/bin/labeldesk'))).toBe(true);
    expect(lstatSync(path.join(root, 'build/bin/labeldesk')).mode & 0o111).not.toBe(0);
    for (const target of ['deb', 'rpm']) {
      expect(config[target].afterInstall, target).toBe('build/linux/after-install.sh');
      expect(config[target].afterRemove, target).toBe('build/linux/after-remove.sh');
    }
    // The install script links the file extraResources puts into resources/.
    expect(rendered('build/linux/after-install.sh')).toContain("SHIM='/opt/LabelDesk/resources/bin/labeldesk'");
  });

  test('the install scripts use only electron-builder’s macros and are valid bash', () => {
    for (const file of ['build/linux/after-install.sh', 'build/linux/after-remove.sh']) {
      const script = path.join(dir, path.basename(file));
      writeFileSync(script, rendered(file));
      expect(spawnSync('bash', ['-n', script], { encoding: 'utf8' }).stderr, file).toBe('');
    }
    expect(spawnSync('sh', ['-n', path.join(root, 'build/bin/labeldesk')], { encoding: 'utf8' }).status).toBe(0);
  });

  test('after install /usr/bin/labeldesk is the shim; removal takes it away, an upgrade or another file keeps it', () => {
    const fakeRoot = path.join(dir, 'root');
    mkdirSync(path.join(fakeRoot, 'usr/bin'), { recursive: true });
    mkdirSync(path.join(fakeRoot, 'opt/LabelDesk/resources/bin'), { recursive: true });
    copyFileSync(path.join(root, 'build/bin/labeldesk'), path.join(fakeRoot, 'opt/LabelDesk/resources/bin/labeldesk'));
    // Absolute paths moved under the temp folder, and only the tools the link needs on the PATH:
    // the machine's update-alternatives, AppArmor and desktop databases stay untouched.
    const tools = path.join(dir, 'tools');
    mkdirSync(tools, { recursive: true });
    for (const tool of ['chmod', 'ln', 'readlink', 'rm']) {
      const found = ['/usr/bin', '/bin'].map((d) => path.join(d, tool)).find((f) => existsSync(f));
      symlinkSync(found!, path.join(tools, tool));
    }
    const script = (file: string) => {
      const target = path.join(dir, `${path.basename(file)}.rooted`);
      writeFileSync(target, rendered(file).replaceAll("'/usr/bin/", `'${fakeRoot}/usr/bin/`).replaceAll("'/opt/", `'${fakeRoot}/opt/`));
      return target;
    };
    const install = script('build/linux/after-install.sh');
    const remove = script('build/linux/after-remove.sh');
    const env = { PATH: tools };
    const bash = ['/bin/bash', '/usr/bin/bash'].find((f) => existsSync(f))!;
    const link = path.join(fakeRoot, 'usr/bin/labeldesk');
    const shim = path.join(fakeRoot, 'opt/LabelDesk/resources/bin/labeldesk');

    expect(spawnSync(bash, [install], { env, encoding: 'utf8' }).status).toBe(0);
    expect(readlinkSync(link)).toBe(shim);
    expect(lstatSync(shim).mode & 0o777).toBe(0o755);
    // Installing again (an upgrade) leaves one good link.
    expect(spawnSync(bash, [install], { env }).status).toBe(0);
    expect(readlinkSync(link)).toBe(shim);

    for (const upgrade of ['upgrade', '1']) {
      expect(spawnSync(bash, [remove, upgrade], { env }).status).toBe(0);
      expect(readlinkSync(link), `after-remove ${upgrade}`).toBe(shim);
    }
    expect(spawnSync(bash, [remove, 'remove'], { env }).status).toBe(0);
    expect(existsSync(link)).toBe(false);

    // A labeldesk of someone else's at that path stays.
    writeFileSync(link, '#!/bin/sh\n');
    expect(spawnSync(bash, [remove, '0'], { env }).status).toBe(0);
    expect(existsSync(link)).toBe(true);
  });

  /** A stand-in for the app's binary that prints the arguments it was given, one a line. */
  function fakeApp(file: string): void {
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, '#!/bin/sh\nprintf "%s\\n" "$0" "$@"\n');
    chmodSync(file, 0o755);
  }

  function installShim(resources: string): string {
    const shim = path.join(resources, 'bin/labeldesk');
    mkdirSync(path.dirname(shim), { recursive: true });
    copyFileSync(path.join(root, 'build/bin/labeldesk'), shim);
    chmodSync(shim, 0o755);
    return shim;
  }

  const linuxSwitches = process.platform === 'linux' ? ['--ozone-platform=headless', '--disable-gpu'] : [];

  test('the shim runs the app it is installed in as the command, through links, arguments intact', () => {
    const opt = path.join(dir, 'opt/LabelDesk');
    fakeApp(path.join(opt, 'labeldesk'));
    const shim = installShim(path.join(opt, 'resources'));
    const bin = path.join(dir, 'usr/bin');
    mkdirSync(bin, { recursive: true });
    symlinkSync(shim, path.join(bin, 'labeldesk'));
    // A relative link to that link, as `ln -s ../../usr/bin/labeldesk` would make.
    mkdirSync(path.join(dir, 'home/bin'), { recursive: true });
    symlinkSync('../../usr/bin/labeldesk', path.join(dir, 'home/bin/labeldesk'));

    for (const entry of [shim, path.join(bin, 'labeldesk'), path.join(dir, 'home/bin/labeldesk')]) {
      const run = spawnSync(entry, ['keys', 'create', '--company', 'a b', '--', '--help'], { encoding: 'utf8' });
      expect(run.stderr, entry).toBe('');
      const [app, ...args] = run.stdout.trimEnd().split('\n');
      expect(path.resolve(app), entry).toBe(path.join(opt, 'labeldesk'));
      expect(args, entry).toEqual([...linuxSwitches, appEntry.MARKER, '--', 'keys', 'create', '--company', 'a b', '--', '--help']);
      // What the app makes of them: exactly the command's arguments.
      expect(appEntry.cliArguments([app, ...args])).toEqual(['keys', 'create', '--company', 'a b', '--', '--help']);
    }
  });

  test('in a macOS app bundle the shim runs Contents/MacOS/LabelDesk; without an app it says where it looked', () => {
    const contents = path.join(dir, 'LabelDesk.app/Contents');
    fakeApp(path.join(contents, 'MacOS/LabelDesk'));
    const shim = installShim(path.join(contents, 'Resources'));
    const run = spawnSync(shim, ['demo'], { encoding: 'utf8' });
    expect(path.resolve(run.stdout.split('\n')[0])).toBe(path.join(contents, 'MacOS/LabelDesk'));

    const lonely = installShim(path.join(dir, 'nowhere/resources'));
    const missing = spawnSync(lonely, ['demo'], { encoding: 'utf8' });
    expect(missing.status).toBe(1);
    expect(missing.stderr).toContain(`the LabelDesk app was not found at ${path.join(dir, 'nowhere')}`);
  });

  test('the app opens its window unless started as the command', () => {
    expect(appEntry.cliArguments(['/opt/LabelDesk/labeldesk'])).toBeNull();
    expect(appEntry.cliArguments(['/opt/LabelDesk/labeldesk', '--no-sandbox', 'file.json'])).toBeNull();
    expect(appEntry.cliArguments(['/opt/LabelDesk/labeldesk', appEntry.MARKER])).toEqual([]);
  });

  describe('the bundled command line', () => {
    let bundle: string;
    beforeAll(async () => {
      const files = await bundleCliModule.bundleCli();
      expect(files).toEqual([bundleCliModule.CLI_BUNDLE, bundleCliModule.APP_ENTRY]);
      bundle = path.join(root, bundleCliModule.CLI_BUNDLE);
      // The packaged entry finds both bundles beside it (dist/main comes from build:electron).
      const entry = readFileSync(path.join(root, bundleCliModule.APP_ENTRY), 'utf8');
      expect(entry).toContain("require('./labeldesk-cli.cjs')");
      expect(entry).toContain("require('./main/main.cjs')");
    }, 120_000);

    /** The bundle's main under plain Node, as the app's main process calls it. */
    function labeldesk(args: string[]) {
      const script = `require(${JSON.stringify(bundle)}).main(process.argv.slice(1)).then((code) => { process.exitCode = code; })`;
      return spawnSync(process.execPath, ['-e', script, ...args], { cwd: dir, encoding: 'utf8', env: { ...process.env, LABELDESK_DATA_DIR: path.join(dir, 'data') } });
    }

    test('keeps only electron, better-sqlite3 and playwright-core outside', () => {
      const code = readFileSync(bundle, 'utf8');
      // playwright-core is imported only when a PDF is asked for.
      const requires = new Set([...code.matchAll(/(?:require|import)\("([^"]+)"\)/g)].map((m) => m[1]).filter((m) => !m.startsWith('node:') && !m.includes('/')));
      const builtins = new Set(require('node:module').builtinModules as string[]);
      expect([...requires].filter((m) => !builtins.has(m)).sort()).toEqual(['better-sqlite3', 'playwright-core']);
    });

    test('makes demo data, exports and imports it back', () => {
      const demo = labeldesk(['demo', '--db', path.join(dir, 'demo.sqlite'), '--reports', '5']);
      expect(demo.stderr).toBe('');
      expect(demo.status).toBe(0);
      expect(demo.stdout).toContain('5 label reports');
      const out = path.join(dir, 'bundle.json');
      expect(labeldesk(['export', '--db', path.join(dir, 'demo.sqlite'), '--out', out]).status).toBe(0);
      const imported = labeldesk(['import', '--db', path.join(dir, 'copy.sqlite'), out]);
      expect(imported.stderr).toBe('');
      expect(imported.stdout).toContain('5 label reports');
      expect(labeldesk(['no-such-command']).status).toBe(2);
    });

    test('the import’s parse worker starts from the bundle', async () => {
      // What service/bundle-import/parse-worker.ts asks a worker to run when it is not TypeScript.
      const code = `import(${JSON.stringify(pathToFileURL(bundle).href)}).then((worker) => worker.runWorker());`;
      const worker = new Worker(code, { eval: true });
      try {
        const first = await new Promise((resolve, reject) => {
          worker.once('message', resolve);
          worker.once('error', reject);
        });
        expect(first).toEqual({ ready: true });
      } finally {
        await worker.terminate();
      }
    });
  });
});
