// The browser tests drive a real Chromium. Debian's package is the one this project uses;
// a test tool's own browser download is never used.
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';

const path = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
if (existsSync(path)) process.exit(0);

const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
if (process.env.CHROMIUM_PATH === undefined && isRoot && existsSync('/usr/bin/apt-get')) {
  console.log('Chromium is missing: installing Debian\'s chromium package for the browser tests…');
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  execFileSync('apt-get', ['update', '-qq'], { stdio: 'inherit', env });
  execFileSync('apt-get', ['install', '-y', '-qq', '--no-install-recommends', 'chromium'], { stdio: 'inherit', env });
  process.exit(0);
}
console.error(
  `The browser tests need Chromium at ${path}. Install it (Debian/Ubuntu: sudo apt-get install chromium) ` +
    'or point CHROMIUM_PATH at a Chromium binary.',
);
process.exit(1);
