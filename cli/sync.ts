/**
 * `labeldesk sync`: the sync worker headless (docs/sync.md#running-it). `--once` runs one
 * cycle and exits 0 when it completed, 1 when the remote could not be reached or refused the
 * key (saying why); without it the worker cycles until SIGTERM or SIGINT, then finishes the
 * step in flight, keeps its state and exits 0. `labeldesk sync status` prints the state as JSON.
 */
import type { SyncStatus } from '../schema/sync';
import type { CycleOutcome } from '../sync';
import { createSyncWorker } from '../sync';
import { databaseFile, EXIT_FAILURE, EXIT_OK, openCliService, parseCommandArgs, UsageError, write, type Command, type Io } from './args';
import { REMOTE_KEY_ENV, refuseKeyInArgv, SYNC_ARG_SPECS, SYNC_OPTIONS_HELP, syncOptionsFrom } from './sync-options';
import { nextSignal } from './stop-signal';

const USAGE = [
  'labeldesk sync [--db FILE] --remote URL [--company ID] [--once] [--interval S] [--page-size N]',
  '               [--overlap S] [--reconcile-every S] [--conflicts local|remote] [--remote-key-file FILE]',
  'labeldesk sync status [--db FILE]',
].join('\n       ');

export const syncCommand: Command = {
  name: 'sync',
  summary: 'mirror the reports a remote instance shows to its key, and send local edits back',
  usage: USAGE,
  help: `usage: ${USAGE}

Mirrors into the database the label reports the remote shows to its API key, and sends the
edits made here to those reports back (PATCH). Each cycle pulls what changed, compares every
id with the remote when due, then pushes what is pending. Without --once it cycles until
SIGTERM or Ctrl+C, then finishes the step in flight and exits 0.

  status   prints the sync state of the database as JSON

options:
  --db FILE              the database (created when missing; default: the per-user data folder)
  --once                 one cycle, then exit: 0 when it completed, 1 when the remote could not
                         be reached or refused the key
${SYNC_OPTIONS_HELP}

environment:
  ${REMOTE_KEY_ENV}   the remote API key (or --remote-key-file)

examples:
  ${REMOTE_KEY_ENV}=ldk_... labeldesk sync --db site.db --remote https://labels.example.com --once
  labeldesk sync --db site.db --remote http://10.0.0.5:4317 --remote-key-file /etc/labeldesk/remote.key
  labeldesk sync status --db site.db
`,
  async run(argv: string[], io: Io): Promise<number> {
    if (argv[0] === 'status') return status(argv.slice(1), io);
    refuseKeyInArgv(argv);
    const { values } = parseCommandArgs(
      argv,
      { db: { type: 'string' }, once: { type: 'boolean' }, ...SYNC_ARG_SPECS },
      false,
    );
    if (values.remote === undefined) throw new UsageError('which remote? give --remote URL');
    const options = syncOptionsFrom(values, process.env)!;
    const service = openCliService(databaseFile(values.db), 'create');
    try {
      if (values.once) {
        const worker = createSyncWorker(service, options, { log: (line) => write(io.err, line) });
        const outcome = await worker.runCycle();
        await worker.stop();
        report(io, outcome, worker.status());
        return outcome.ok ? EXIT_OK : EXIT_FAILURE;
      }
      return await continuously(service, options, io);
    } finally {
      service.close();
    }
  },
};

async function continuously(
  service: Parameters<typeof createSyncWorker>[0],
  options: Parameters<typeof createSyncWorker>[1],
  io: Io,
): Promise<number> {
  let last = '';
  const worker = createSyncWorker(service, options, {
    log: (line) => write(io.err, line),
    onCycle: (outcome, state) => {
      // One line when something changed, not one per quiet cycle.
      const line = describe(outcome, state);
      if (line !== last) write(outcome.ok ? io.out : io.err, line);
      last = line;
    },
  });
  const stopSignal = nextSignal();
  worker.start();
  write(io.out, `LabelDesk sync with ${options.remoteUrl}: a cycle every ${options.intervalSeconds ?? 30} s`);
  const signal = await stopSignal;
  write(io.err, `${signal}: finishing the step in flight, then stopping`);
  await worker.stop();
  write(io.err, 'LabelDesk sync stopped');
  return EXIT_OK;
}

async function status(argv: string[], io: Io): Promise<number> {
  const { values } = parseCommandArgs(argv, { db: { type: 'string' } }, false);
  const service = openCliService(databaseFile(values.db), 'existing');
  try {
    write(io.out, JSON.stringify(service.sync.savedStatus(), null, 2));
    return EXIT_OK;
  } finally {
    service.close();
  }
}

function report(io: Io, outcome: CycleOutcome, state: SyncStatus): void {
  write(outcome.ok ? io.out : io.err, describe(outcome, state));
}

function describe(outcome: CycleOutcome, state: SyncStatus): string {
  const counts =
    `${state.pending} pending, ${state.conflicts} ${state.conflicts === 1 ? 'conflict' : 'conflicts'}, ` +
    `${state.deadLetters} refused ${state.deadLetters === 1 ? 'edit' : 'edits'}, ${state.refused} refused ${state.refused === 1 ? 'report' : 'reports'}`;
  if (outcome.ok) return `sync completed: ${counts}`;
  // Offline and paused messages say what happened themselves ("cannot reach …", "the remote refused the key …").
  return `${outcome.reason === 'error' ? 'sync failed: ' : ''}${outcome.message} (${counts})`;
}
