/**
 * better-sqlite3 installs with `prebuild-install || node-gyp rebuild`. The project's
 * .prebuild-installrc tells prebuild-install to stand down, so npm install compiles the addon
 * and downloads no prebuilt binary, with no npm setting npm does not know.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const addon = path.join(root, 'node_modules', 'better-sqlite3');

it('the install script is prebuild-install, falling back to node-gyp', () => {
  const pkg = JSON.parse(readFileSync(path.join(addon, 'package.json'), 'utf8')) as { scripts: Record<string, string> };
  expect(pkg.scripts.install).toMatch(/^prebuild-install \|\| node-gyp rebuild/);
});

it("prebuild-install, run from the addon's folder as npm runs it, reads the project's file and builds from source", () => {
  // No user-level file or npm variable may answer in the project's place.
  const home = mkdtempSync(path.join(tmpdir(), 'labeldesk-home-'));
  try {
    const env = Object.fromEntries(Object.entries(process.env).filter(([name]) => !/^npm_config_|^prebuild-install_/i.test(name)));
    const printed = execFileSync(
      process.execPath,
      ['-e', "const rc = require('prebuild-install/rc')(require('./package.json')); console.log(JSON.stringify({ buildFromSource: rc.buildFromSource, configs: rc.configs }))"],
      { cwd: addon, env: { ...env, HOME: home, USERPROFILE: home }, encoding: 'utf8' },
    );
    const rc = JSON.parse(printed) as { buildFromSource: unknown; configs?: string[] };
    expect(rc.configs).toEqual([path.join(root, '.prebuild-installrc')]);
    expect(rc.buildFromSource).toBe(true);
  } finally {
    rmSync(home, { recursive: true, force: true });
  }
});
