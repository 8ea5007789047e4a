// The browser tests drive a real Chromium. Debian's packages are the ones this project uses;
// a test tool's own browser download is never used. `chromium` is what `labeldesk report --pdf`
// prints with; the browser tests prefer `chromium-headless-shell` (the same Chromium without the
// desktop browser around it, which costs them much less CPU) and fall back to `chromium`.
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';

const PACKAGES = { chromium: '/usr/bin/chromium', 'chromium-headless-shell': '/usr/bin/chromium-headless-shell' };

const path = process.env.CHROMIUM_PATH ?? PACKAGES.chromium;
const missing = process.env.CHROMIUM_PATH === undefined ? Object.keys(PACKAGES).filter((name) => !existsSync(PACKAGES[name])) : [];
if (existsSync(path) && missing.length === 0) process.exit(0);

const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
if (missing.length > 0 && isRoot && existsSync('/usr/bin/apt-get')) {
  console.log(`Installing Debian's ${missing.join(' and ')} for the browser tests…`);
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  try {
    execFileSync('apt-get', ['update', '-qq'], { stdio: 'inherit', env });
    execFileSync('apt-get', ['install', '-y', '-qq', '--no-install-recommends', ...missing], { stdio: 'inherit', env });
    process.exit(0);
  } catch (error) {
    // Without the headless build the tests run on the full browser, only slower.
    if (existsSync(path)) process.exit(0);
    throw error;
  }
}
// The headless build alone missing is no reason to stop: the tests use `chromium` instead.
if (existsSync(path)) process.exit(0);
console.error(
  `The browser tests need Chromium at ${path}. Install it (Debian/Ubuntu: sudo apt-get install chromium chromium-headless-shell) ` +
    'or point CHROMIUM_PATH at a Chromium binary.',
);
process.exit(1);
