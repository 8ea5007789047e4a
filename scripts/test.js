// `npm test`: the typecheck runs beside the builds and the suite rather than before them (it
// takes a core for a minute, while the suite often waits on browsers and child processes). Not
// at a lower priority: on a machine busy with other work that starves it for many minutes. The
// command fails when either fails; the typecheck's output comes after the suite's, whole, so neither is torn by the other.
// Arguments go to vitest: `npm test -- test/sync`.
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const require = createRequire(import.meta.url);
/** A package's own command file, found the way `npx` finds it. */
const bin = (pkg, file) => join(dirname(require.resolve(`${pkg}/package.json`)), file);
const started = performance.now();
const seconds = (ms) => `${(ms / 1000).toFixed(1)} s`;

/** Runs a command to its end; resolves with its exit code, its time and, when `capture`, its output. */
function run(label, command, args, { capture = false, env = process.env } = {}) {
  const t0 = performance.now();
  const child = spawn(command, args, { stdio: capture ? ['ignore', 'pipe', 'pipe'] : 'inherit', env });
  let output = '';
  child.stdout?.on('data', (chunk) => (output += chunk));
  child.stderr?.on('data', (chunk) => (output += chunk));
  running.add(child);
  return new Promise((resolve) => {
    child.on('error', (error) => {
      output += `${error.message}\n`;
    });
    child.on('close', (code, signal) => {
      running.delete(child);
      resolve({ label, code: code ?? (signal ? 1 : 0), ms: performance.now() - t0, output });
    });
  });
}

const running = new Set();
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => {
    for (const child of running) child.kill(signal);
    process.exit(130);
  });
}

const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
const typecheck = run('typecheck', process.execPath, [bin('typescript', 'bin/tsc'), '-p', 'tsconfig.json'], { capture: true });

// The renderer just built is the one the browser tests serve (test/support/run-cache.ts), rather
// than a second build of the same sources.
const builtRenderer = fileURLToPath(new URL('../dist/renderer', import.meta.url));
const steps = [];
for (const [label, command, args, env] of [
  ['build:renderer', npm, ['run', '--silent', 'build:renderer']],
  ['build:cli', npm, ['run', '--silent', 'build:cli']],
  ['vitest', process.execPath, [bin('vitest', 'vitest.mjs'), 'run', ...process.argv.slice(2)], { ...process.env, LABELDESK_TEST_UI: builtRenderer }],
]) {
  const step = await run(label, command, args, { env });
  steps.push(step);
  if (step.code !== 0) break;
}

const checked = await typecheck;
if (checked.output.trim() !== '') process.stdout.write(`\n${checked.output.trimEnd()}\n`);
const all = [checked, ...steps];
const failed = all.filter((s) => s.code !== 0);
process.stdout.write(
  `\nnpm test: ${all.map((s) => `${s.label} ${seconds(s.ms)}${s.code === 0 ? '' : ' FAILED'}`).join(', ')}; ${seconds(performance.now() - started)} in all\n`,
);
process.exit(failed.length === 0 ? 0 : 1);
