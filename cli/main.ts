/**
 * `labeldesk`: the command line (docs/cli.md). `main(argv)` runs one command and resolves with
 * its exit code: 0 ok, 1 failure, 2 usage. bin/labeldesk.js sets it as the process's exit code.
 */
import { DEFAULT_DEMO } from '../demo';
import { VERSION } from '../contract/version';
import { fileFault, isFault } from '../db/faults';
import path from 'node:path';
import { CliError, EXIT_FAILURE, EXIT_OK, EXIT_USAGE, processIo, UsageError, write, type Command, type Io } from './args';
import { alarmsCommand } from './alarms';
import { auditCommand } from './audit';
import { backupCommand } from './backup';
import { restoreCommand } from './restore';
import { demoCommand } from './demo';
import { exportCommand } from './export';
import { importCommand } from './import';
import { keysCommand } from './keys';
import { usersCommand } from './users';
import { reportCommand } from './report';
import { insightsCommand } from './insights';
import { serveCommand } from './serve';
import { smtpCommand } from './smtp';
import { syncCommand } from './sync';
import { webhooksCommand } from './webhooks';

export const COMMANDS: readonly Command[] = [serveCommand, importCommand, exportCommand, demoCommand, keysCommand, usersCommand, webhooksCommand, syncCommand, reportCommand, insightsCommand, auditCommand, alarmsCommand, smtpCommand, backupCommand, restoreCommand];

export async function main(argv: string[], io: Io = processIo()): Promise<number> {
  const [name, ...rest] = argv;
  if (name === undefined) {
    write(io.err, usage());
    return EXIT_USAGE;
  }
  if (name === 'help' || name === '--help' || name === '-h') {
    if (rest.length === 0) {
      write(io.out, usage());
      return EXIT_OK;
    }
    const command = COMMANDS.find((c) => c.name === rest[0]);
    if (!command) return unknownCommand(rest[0], io);
    write(io.out, command.help);
    return EXIT_OK;
  }
  if (name === '--version' || name === '-v') {
    write(io.out, VERSION);
    return EXIT_OK;
  }
  const command = COMMANDS.find((c) => c.name === name);
  if (!command) return unknownCommand(name, io);
  if (asksForHelp(rest)) {
    write(io.out, command.help);
    return EXIT_OK;
  }
  try {
    return await command.run(rest, io);
  } catch (err) {
    if (err instanceof UsageError) {
      write(io.err, `labeldesk ${command.name}: ${err.message}`);
      write(io.err, `usage: ${command.usage}`);
      write(io.err, `Run 'labeldesk help ${command.name}' for details.`);
      return EXIT_USAGE;
    }
    if (err instanceof CliError || isFault(err)) {
      write(io.err, `labeldesk ${command.name}: ${err.message}`);
      return EXIT_FAILURE;
    }
    // A file the command writes (an export, a report, an archive) in a folder that refuses it or on a full disk.
    const fault = writeFault(err);
    if (fault) {
      write(io.err, `labeldesk ${command.name}: ${fault.message}`);
      return EXIT_FAILURE;
    }
    // Not foreseen: the message, and the stack when asked for (LABELDESK_DEBUG=1).
    const detail = process.env.LABELDESK_DEBUG ? ((err as Error)?.stack ?? String(err)) : ((err as Error)?.message ?? String(err));
    write(io.err, `labeldesk ${command.name}: ${detail}`);
    return EXIT_FAILURE;
  }
}

/** Node's error of a file it could not write, as the fault naming its folder; null for any other error. */
function writeFault(err: unknown): Error | null {
  const file = (err as NodeJS.ErrnoException | null)?.path;
  return typeof file === 'string' ? fileFault(err, path.dirname(file), `${file} cannot be written`) : null;
}

/** `--help` or `-h` anywhere among a command's options (not after `--`) shows its help, and does nothing else. */
function asksForHelp(argv: string[]): boolean {
  const end = argv.indexOf('--');
  return (end === -1 ? argv : argv.slice(0, end)).some((a) => a === '--help' || a === '-h');
}

function unknownCommand(name: string, io: Io): number {
  write(io.err, `labeldesk: unknown command '${name}'`);
  write(io.err, usage());
  return EXIT_USAGE;
}

export function usage(): string {
  const width = Math.max(...COMMANDS.map((c) => c.name.length), 'help'.length);
  return `LabelDesk ${VERSION}: a local label report service and its tools

usage: labeldesk <command> [options]

commands:
${COMMANDS.map((c) => `  ${c.name.padEnd(width)}  ${c.summary}`).join('\n')}
  ${'help'.padEnd(width)}  show this, or a command's help: labeldesk help import

Without --db, commands use the database in the per-user data folder
(LABELDESK_DATA_DIR when set).

examples:
  labeldesk demo --db demo.db                     # demo companies, keys and ${DEFAULT_DEMO.reports} label reports
  labeldesk serve --db demo.db --port 0           # prints: LabelDesk service listening on http://127.0.0.1:PORT
  labeldesk import --db labeldesk.db bundle.json  # all or nothing; problems are printed with their JSON path
  labeldesk export --db labeldesk.db --out backup.json
  labeldesk keys create --db labeldesk.db --company acme --permissions labelReports:read,labelReports:update
  labeldesk keys list --db labeldesk.db
  labeldesk keys revoke --db labeldesk.db KEY_ID
  labeldesk users create --db labeldesk.db --company acme --login anna --name "Anna Berg" --role admin --password-file -
  labeldesk webhooks create --db labeldesk.db --company acme --url http://127.0.0.1:9000/hook
  LABELDESK_REMOTE_KEY=ldk_... labeldesk sync --db labeldesk.db --remote https://labels.example.com --once
  labeldesk report --db labeldesk.db --id REPORT_ID --pdf shipment.pdf
  labeldesk backup --db labeldesk.db --to /mnt/share/labeldesk-backups
  labeldesk restore --from backups/labeldesk-2026-12-07T101500Z.sqlite --db labeldesk.db
`;
}

