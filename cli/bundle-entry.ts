/**
 * The entry of the prebuilt command (`npm run build:cli`, .labeldesk-cli/main.mjs): the command
 * line, and what the import's parse worker runs, which loads the module it was written in
 * (service/bundle-import/parse-worker.ts) — inside the bundle, the bundle itself; likewise the
 * backup's verification worker (service/backup-verify-worker.ts).
 */
export { main } from './main';
export { runWorker } from '../service/bundle-import/parse-worker';
export { runBackupVerifyWorker } from '../service/backup-verify-worker';
export { runReadWorker } from '../service/read-pool';
