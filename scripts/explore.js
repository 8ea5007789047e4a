// `npm run test:explore [-- SEEDS [FILE…]]`: every seeded test (the ones that draw through
// test/support/property.ts) on SEEDS fresh seeds each (default 20), instead of `npm test`'s fixed
// ones. Each failing seed is printed with the one command that replays it; a seed found here
// becomes a fixed case in the change that fixes what it found.
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const [count = '20', ...only] = process.argv.slice(2);
if (!/^[1-9]\d*$/.test(count)) {
  console.error(`usage: npm run test:explore -- [SEEDS] [FILE…]  (SEEDS a positive integer, not '${count}')`);
  process.exit(2);
}

function* testFiles(dir) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) yield* testFiles(path);
    else if (/\.test\.tsx?$/.test(entry.name)) yield path;
  }
}
const seeded = [...testFiles(join(root, 'test'))]
  .filter((file) => /from '(\.\.?\/)+support\/property'/.test(readFileSync(file, 'utf8')))
  .map((file) => relative(root, file));
const files = only.length > 0 ? only : seeded;

console.log(`Exploring ${count} fresh seeds in each of ${files.length} files: ${files.join(', ')}`);
const run = spawnSync('npx', ['vitest', 'run', ...files], {
  cwd: root,
  stdio: ['ignore', 'pipe', 'inherit'],
  env: { ...process.env, EXPLORE: count },
  encoding: 'utf8',
  maxBuffer: 512 * 1024 * 1024,
});
process.stdout.write(run.stdout ?? '');
// Vitest prints each failure's message once in its summary: gather the replay lines from it.
const plain = (run.stdout ?? '').replace(/\x1b\[[0-9;]*m/g, '');
const replays = [...new Set(plain.match(/seed \d+ fails; replay: [^\n]*/g) ?? [])];
if (replays.length > 0) console.log(`\n${replays.length} failing seed(s):\n${replays.map((r) => `  ${r}`).join('\n')}`);
else if (run.status === 0) console.log('\nNo failing seed.');
process.exit(run.status ?? 1);
