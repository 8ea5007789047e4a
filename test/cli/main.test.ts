/**
 * The command line's frame, in-process: help and usage, exit codes for bad input, and the
 * per-user data folder where the default database lives.
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import packageJson from '../../package.json' with { type: 'json' };
import { COMMANDS, main } from '../../cli/main';
import { dataFolder, DATABASE_FILE_NAME, defaultDatabaseFile } from '../../host/data-folder';

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'labeldesk-main-'));
});
afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

async function run(...argv: string[]): Promise<{ code: number; out: string; err: string }> {
  const out = new PassThrough();
  const err = new PassThrough();
  let outText = '';
  let errText = '';
  out.on('data', (d) => (outText += d));
  err.on('data', (d) => (errText += d));
  const code = await main(argv, { out, err });
  return { code, out: outText, err: errText };
}

describe('labeldesk main', () => {
  it('prints usage with examples for help, and each command its own help', async () => {
    for (const args of [['help'], ['--help'], ['-h']]) {
      const { code, out } = await run(...args);
      expect(code).toBe(0);
      expect(out).toMatch(/usage: labeldesk <command> \[options\]/);
      for (const command of ['serve', 'import', 'export', 'demo', 'keys', 'webhooks']) expect(out).toMatch(new RegExp(`^  ${command} `, 'm'));
      expect(out).toMatch(/examples:/);
    }
    for (const { name: command } of COMMANDS) {
      const viaHelp = await run('help', command);
      expect(viaHelp.code).toBe(0);
      expect(viaHelp.out).toMatch(new RegExp(`^usage: labeldesk ${command}`));
      expect(viaHelp.out).toMatch(/examples:/);
      for (const flag of [[command, '--help'], [command, '-h'], [command, '--db', 'missing/none.db', '--help']]) {
        expect(await run(...flag)).toEqual({ code: 0, out: viaHelp.out, err: '' });
      }
    }
    // A subcommand's --help shows its command's help and does nothing else: no key is made here.
    for (const args of [['keys', 'create', '--company', 'acme', '--help'], ['webhooks', 'list', '-h'], ['sync', 'status', '--help']]) {
      expect(await run(...args)).toEqual({ code: 0, out: (await run('help', args[0])).out, err: '' });
    }
    // After `--` it is an argument, not a request for help.
    expect((await run('import', '--', '--help')).err).toMatch(/cannot read the bundle .*--help: no such file/);
    expect((await run('--version')).out.trim()).toBe(packageJson.version);
  });

  it('answers bad command lines with a clear message, the usage line and exit code 2', async () => {
    const none = await run();
    expect(none.code).toBe(2);
    expect(none.err).toMatch(/usage: labeldesk <command>/);

    const unknown = await run('frobnicate');
    expect(unknown).toMatchObject({ code: 2, out: '' });
    expect(unknown.err).toMatch(/^labeldesk: unknown command 'frobnicate'/);

    const flag = await run('export', '--db', 'x.db', '--format', 'yaml');
    expect(flag.code).toBe(2);
    expect(flag.err.split('\n').slice(0, 3)).toEqual([
      "labeldesk export: unknown option '--format' (options: --db, --out)",
      'usage: labeldesk export [--db FILE] [--out FILE]',
      "Run 'labeldesk help export' for details.",
    ]);

    expect((await run('serve', '--port', 'abc')).err).toMatch(/--port takes a whole number, not 'abc'/);
    expect((await run('serve', '--port=-1')).err).toMatch(/--port must be between 0 and 65535, not -1/);
    expect((await run('serve', '--port', '-1')).err).toMatch(/option --port needs a value; for a value starting with "-", write --port=VALUE/);
    expect((await run('demo', '--reports', '1.5')).code).toBe(2);
    expect((await run('demo', '--seed')).err).toMatch(/option --seed needs a value/);
    expect((await run('serve', '--demo=yes')).err).toMatch(/option --demo takes no value/);
    expect((await run('export', 'extra')).err).toMatch(/unexpected argument 'extra'/);
    expect((await run('import', '--db', 'x.db')).err).toMatch(/which bundle\?/);
    expect((await run('import', 'a.json', 'b.json')).err).toMatch(/give one bundle file, not 2/);
  });

  it('uses the database in the per-user data folder when --db is not given', async () => {
    const previous = process.env.LABELDESK_DATA_DIR;
    process.env.LABELDESK_DATA_DIR = join(dir, 'data', 'nested');
    try {
      const demo = await run('demo', '--reports', '3', '--seed', '2');
      expect(demo.code).toBe(0);
      expect(demo.out).toContain(join(dir, 'data', 'nested', DATABASE_FILE_NAME));
      expect(existsSync(join(dir, 'data', 'nested', DATABASE_FILE_NAME))).toBe(true);
      const list = await run('keys', 'list');
      expect(list.code).toBe(0);
      expect(list.out.trim().split('\n')).toHaveLength(5);
    } finally {
      if (previous === undefined) delete process.env.LABELDESK_DATA_DIR;
      else process.env.LABELDESK_DATA_DIR = previous;
    }
  });
});

describe('data folder', () => {
  it('follows LABELDESK_DATA_DIR, then the platform convention', () => {
    const home = '/home/ada';
    expect(dataFolder({ env: { LABELDESK_DATA_DIR: '/srv/labeldesk' }, platform: 'linux', home })).toBe('/srv/labeldesk');
    expect(dataFolder({ env: {}, platform: 'linux', home })).toBe('/home/ada/.local/share/labeldesk');
    expect(dataFolder({ env: { XDG_DATA_HOME: '/data/xdg' }, platform: 'linux', home })).toBe('/data/xdg/labeldesk');
    expect(dataFolder({ env: { XDG_DATA_HOME: 'relative/xdg' }, platform: 'linux', home })).toBe('/home/ada/.local/share/labeldesk');
    expect(dataFolder({ env: {}, platform: 'darwin', home: '/Users/ada' })).toBe('/Users/ada/Library/Application Support/LabelDesk');
    expect(dataFolder({ env: { APPDATA: 'C:\\Users\\ada\\AppData\\Roaming' }, platform: 'win32', home: 'C:\\Users\\ada' })).toBe(
      'C:\\Users\\ada\\AppData\\Roaming\\LabelDesk',
    );
    expect(dataFolder({ env: {}, platform: 'win32', home: 'C:\\Users\\ada' })).toBe('C:\\Users\\ada\\AppData\\Roaming\\LabelDesk');
  });

  it('creates the folder for the default database', () => {
    const folder = join(dir, 'made', 'here');
    const file = defaultDatabaseFile({ env: { LABELDESK_DATA_DIR: folder } });
    expect(file).toBe(join(folder, DATABASE_FILE_NAME));
    expect(existsSync(folder)).toBe(true);
  });
});
