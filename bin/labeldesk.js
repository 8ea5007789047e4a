#!/usr/bin/env node
// The labeldesk command runs its TypeScript sources through tsx, so the repository needs no
// build step before `npx labeldesk` works. Where `npm run build:cli` has bundled them and no
// source has changed since, the bundle starts in a third of the time; a stale one is never run.
import { readFileSync, statSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const bundle = new URL('../.labeldesk-cli/main.mjs', import.meta.url);

/** Whether the bundle exists and every source it was built from is as old as it, or older. */
function bundleIsFresh() {
  try {
    const built = statSync(bundle).mtimeMs;
    const { inputs } = JSON.parse(readFileSync(new URL('../.labeldesk-cli/meta.json', import.meta.url), 'utf8'));
    return Object.keys(inputs).every((input) => statSync(root + input).mtimeMs <= built);
  } catch {
    return false;
  }
}

let main;
if (bundleIsFresh()) {
  ({ main } = await import(bundle.href));
} else {
  const { register } = await import('tsx/esm/api');
  register();
  ({ main } = await import('../cli/main.ts'));
}
process.exitCode = await main(process.argv.slice(2));
