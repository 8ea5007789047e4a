/**
 * `labeldesk serve`: the service, headless. Prints exactly one line with `http://HOST:PORT`
 * once it accepts requests; on SIGTERM or SIGINT it stops accepting, lets in-flight requests
 * finish, closes the database and resolves with 0.
 */
import { SHUTDOWN_GRACE_MS } from '../http/graceful-stop';
import { firstAdminLines } from '../host/headless';
import { DatabaseOpenError, DEFAULT_PORT, startService, WAITING_FOR_DATABASE, type RunningService } from '../host/start-service';
import { isLoopback } from '../http/local-guard';
import { demoKeyTable } from './demo';
import { nextSignal } from './stop-signal';
import { SYNC_DEFAULTS } from '../sync/defaults';
import type { SyncOptions } from '../sync';
import { smtpPasswordFrom } from './smtp';
import { REMOTE_KEY_ENV, refuseKeyInArgv, SYNC_ARG_SPECS, SYNC_OPTIONS_HELP, syncOptionsFrom } from './sync-options';
import {
  cannotOpen,
  checkDatabaseFile,
  CliError,
  databaseFile,
  EXIT_OK,
  integerOption,
  parseCommandArgs,
  UsageError,
  write,
  type Command,
  type Io,
} from './args';

export const DEFAULT_HOST = '127.0.0.1';
const USAGE = 'labeldesk serve [--db FILE] [--host H] [--port N] [--demo] [--allow-remote] [--remote URL [sync options]]';

export const serveCommand: Command = {
  name: 'serve',
  summary: 'run the label report service (the /v2 API and the UI) headless',
  usage: USAGE,
  help: `usage: ${USAGE}

Runs the service until SIGTERM or Ctrl+C, then finishes the requests in flight, closes the
database and exits with 0. Prints one line with the address once it accepts requests.
A database from an older LabelDesk is migrated on start.

options:
  --db FILE       the database (created when missing; default: the per-user data folder)
  --host H        the address to bind (default ${DEFAULT_HOST}): a loopback address (127.x.y.z,
                  ::1, ::ffff:127.x.y.z) or localhost, unless --allow-remote
  --port N        the port (default ${DEFAULT_PORT}; 0 takes a free port)
  --demo          when the database is new (no company, no label report), create demo data
                  first and print its keys
  --allow-remote  let --host be an address other machines can reach (0.0.0.0, a network
                  address): there only the API keys protect the reports, since the check that
                  keeps web pages out (Host and Origin) works on loopback alone

sync with a remote (as 'labeldesk sync' does, in this process, off the request path):
${SYNC_OPTIONS_HELP}

examples:
  labeldesk serve
  labeldesk serve --db labeldesk.db --port 0 --demo
  ${REMOTE_KEY_ENV}=ldk_... labeldesk serve --db site.db --remote https://labels.example.com
  curl -H "x-api-key: $KEY" "http://127.0.0.1:${DEFAULT_PORT}/v2/labelReports?pageSize=5&output=minimal"
`,
  async run(argv: string[], io: Io): Promise<number> {
    refuseKeyInArgv(argv);
    const { values } = parseCommandArgs(
      argv,
      {
        db: { type: 'string' },
        host: { type: 'string' },
        port: { type: 'string', short: 'p' },
        demo: { type: 'boolean' },
        'allow-remote': { type: 'boolean' },
        ...SYNC_ARG_SPECS,
      },
      false,
    );
    const port = values.port === undefined ? DEFAULT_PORT : integerOption('--port', values.port, 0, 65535);
    const host = values.host ?? DEFAULT_HOST;
    const remote = !isLoopback(host);
    if (remote && !values['allow-remote']) {
      throw new UsageError(
        `--host ${host} is not a loopback address: other machines could reach the service with only an API key ` +
          'to stop them, and the check that keeps web pages out (Host and Origin) works on loopback alone. ' +
          'To serve other machines anyway, add --allow-remote.',
      );
    }
    const sync = syncOptionsFrom(values, process.env);
    const dbFile = databaseFile(values.db);
    checkDatabaseFile(dbFile, 'create');
    if (remote) {
      write(io.err, `warning: serving on ${host}, which other machines can reach: only the API keys protect the reports there`);
    }
    const running = await listen(dbFile, host, port, values.demo === true, sync, io);
    if (running.demo) {
      write(io.out, `created demo data: ${running.demo.reports} label reports; demo API keys:`);
      write(io.out, demoKeyTable(running.demo));
    }
    // Listen for the signals before announcing the address, so none can slip in between.
    const stopSignal = nextSignal();
    write(io.out, `database: ${dbFile}`);
    if (!running.service.users.anyUser()) {
      for (const line of firstAdminLines(dbFile, running.service.homeCompany())) write(io.err, line);
    }
    // On standard error: the remote's URL must not pass for the service's address line.
    if (sync) write(io.err, `syncing with ${sync.remoteUrl}: a cycle every ${sync.intervalSeconds ?? SYNC_DEFAULTS.intervalSeconds} s`);
    // The one line with the address, and nothing else on it: tools wait for it.
    write(io.out, `LabelDesk service listening on ${running.url}`);

    const signal = await stopSignal;
    write(io.err, `${signal}: finishing the requests in flight, then closing the database`);
    // A second signal means "now": the process ends without waiting.
    const force = (again: NodeJS.Signals) => {
      write(io.err, `${again} again: stopping at once`);
      process.exit(1);
    };
    process.once('SIGTERM', force);
    process.once('SIGINT', force);
    try {
      await running.close({
        onDraining: (inFlight) =>
          write(io.err, `no longer accepting connections; ${inFlight} ${inFlight === 1 ? 'request' : 'requests'} in flight`),
        onTimeout: () => write(io.err, `requests still running after ${SHUTDOWN_GRACE_MS / 1000} s: closing their connections`),
      });
    } finally {
      process.off('SIGTERM', force);
      process.off('SIGINT', force);
    }
    write(io.err, 'LabelDesk service stopped');
    return EXIT_OK;
  },
};

async function listen(
  dbFile: string,
  host: string,
  port: number,
  demoIfEmpty: boolean,
  remote: SyncOptions | undefined,
  io: Io,
): Promise<RunningService> {
  try {
    return await startService({
      dbFile,
      host,
      port,
      demoIfEmpty,
      sync: { remote, hooks: { log: (line) => write(io.err, line) } },
      alarmDelivery: { smtpPassword: smtpPasswordFrom(process.env) },
      onWaitingForDatabase: () => write(io.err, WAITING_FOR_DATABASE),
    });
  } catch (err) {
    if (err instanceof DatabaseOpenError) throw new CliError(cannotOpen(dbFile, err));
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'EADDRINUSE') {
      throw new CliError(`port ${port} on ${host} is already in use: choose another with --port (0 takes a free one)`);
    }
    if (code === 'EADDRNOTAVAIL' || code === 'ENOTFOUND') throw new CliError(`cannot listen on ${host}: no such local address`);
    if (code === 'EACCES') throw new CliError(`not allowed to listen on ${host}:${port}`);
    throw new CliError(`cannot start the service: ${(err as Error).message}`);
  }
}
