#!/usr/bin/env node
// The labeldesk command runs its TypeScript sources through tsx, so the repository needs no
// build step before `npx labeldesk` works.
import { register } from 'tsx/esm/api';

register();
const { main } = await import('../cli/main.ts');
process.exitCode = await main(process.argv.slice(2));
