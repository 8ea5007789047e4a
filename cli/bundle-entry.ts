/**
 * The entry of the prebuilt command (`npm run build:cli`, .labeldesk-cli/main.mjs): the command
 * line, and what the import's parse worker runs, which loads the module it was written in
 * (service/bundle-import/parse-worker.ts) — inside the bundle, the bundle itself.
 */
export { main } from './main';
export { runWorker } from '../service/bundle-import/parse-worker';
