/**
 * What every `labeldesk` command shares: strict option parsing with messages for people, the
 * exit codes (0 ok, 1 failure, 2 usage), the database file and how to open it.
 */
import { existsSync, statSync } from 'node:fs';
import path from 'node:path';
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { defaultDatabaseFile } from '../host/data-folder';
import { openService, type Service } from '../host/open-service';
import { Refusal } from '../model/errors';
import { FolderNotWritableError, isFault, whyFolderRefusesWrites } from '../db/faults';

export const EXIT_OK = 0;
export const EXIT_FAILURE = 1;
export const EXIT_USAGE = 2;

/** Where a command writes: stdout for results, stderr for problems and progress. */
export interface Io {
  out: NodeJS.WritableStream;
  err: NodeJS.WritableStream;
}

export function processIo(): Io {
  return { out: process.stdout, err: process.stderr };
}

/** The command line was wrong: the message, the command's usage line, exit 2. */
export class UsageError extends Error {}

/** The command could not do its job: the message alone, exit 1. */
export class CliError extends Error {}

export interface Command {
  name: string;
  /** One line for `labeldesk help`. */
  summary: string;
  /** The usage line(s), `labeldesk import [--db FILE] BUNDLE.json`. */
  usage: string;
  /** The full help: usage, options and examples. */
  help: string;
  run(argv: string[], io: Io): Promise<number>;
}

type Options = NonNullable<ParseArgsConfig['options']>;

/**
 * A command made of subcommands (`labeldesk keys create …`): runs the one `argv` names, prints
 * the command's help for help, and refuses a missing or unknown one alike for every command.
 */
export function runSubcommand(
  command: Command,
  subcommands: Record<string, (argv: string[], io: Io) => Promise<number>>,
  argv: string[],
  io: Io,
): Promise<number> {
  const [sub, ...rest] = argv;
  const names = Object.keys(subcommands);
  const choices = `${names.slice(0, -1).join(', ')} or ${names.at(-1)}`;
  if (sub === '--help' || sub === '-h' || sub === 'help') {
    write(io.out, command.help);
    return Promise.resolve(EXIT_OK);
  }
  if (sub === undefined) throw new UsageError(`which ${command.name} command? ${choices}`);
  if (!Object.hasOwn(subcommands, sub)) throw new UsageError(`unknown ${command.name} command '${sub}': use ${choices}`);
  return subcommands[sub](rest, io);
}

/** node:util parseArgs in strict mode, its errors turned into usage errors a person can act on. */
export function parseCommandArgs<T extends Options>(argv: string[], options: T, allowPositionals: boolean) {
  try {
    return parseArgs({ args: argv, options, allowPositionals, strict: true });
  } catch (err) {
    throw new UsageError(describeParseError(err as Error & { code?: string }, options));
  }
}

function describeParseError(err: Error & { code?: string }, options: Options): string {
  const message = err.message;
  switch (err.code) {
    case 'ERR_PARSE_ARGS_UNKNOWN_OPTION': {
      const name = /'([^']+)'/.exec(message)?.[1] ?? '';
      const known = Object.keys(options).map((o) => '--' + o);
      return `unknown option '${name}'${known.length ? ` (options: ${known.join(', ')})` : ''}`;
    }
    case 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE': {
      const name = /'(--?[\w-]+)/.exec(message)?.[1] ?? 'an option';
      if (/argument missing/.test(message)) return `option ${name} needs a value`;
      if (/ambiguous/.test(message)) return `option ${name} needs a value; for a value starting with "-", write ${name}=VALUE`;
      if (/does not take an argument/.test(message)) return `option ${name} takes no value`;
      return message;
    }
    case 'ERR_PARSE_ARGS_UNEXPECTED_POSITIONAL': {
      const value = /'([^']*)'/.exec(message)?.[1];
      return value === undefined ? 'unexpected argument' : `unexpected argument '${value}'`;
    }
    default:
      return message;
  }
}

/** A decimal integer within [min, max], else a usage error naming the option. */
export function integerOption(name: string, value: string, min: number, max = Number.MAX_SAFE_INTEGER): number {
  if (!/^-?\d+$/.test(value.trim())) throw new UsageError(`${name} takes a whole number, not '${value}'`);
  const n = Number(value);
  if (!Number.isSafeInteger(n) || n < min || n > max) {
    throw new UsageError(`${name} must be between ${min} and ${max}, not ${value}`);
  }
  return n;
}

/** `--db FILE`, or the database in the per-user data folder. */
export function databaseFile(option: string | undefined): string {
  return option === undefined ? defaultDatabaseFile() : path.resolve(option);
}

/**
 * Refuses a database path that cannot work, with a message a person can act on. `existing`:
 * the file must be there already, as for export and keys; `create`: a new file may be made,
 * as for import, demo and serve.
 */
export function checkDatabaseFile(file: string, mode: 'existing' | 'create'): void {
  if (existsSync(file)) {
    if (!statSync(file).isFile()) throw new CliError(`${file} is not a file`);
  } else if (mode === 'existing') {
    throw new CliError(`there is no database at ${file} (create one with 'labeldesk import' or 'labeldesk demo')`);
  } else if (!existsSync(path.dirname(file))) {
    const folder = path.dirname(file);
    // A path through a file (ENOTDIR) is no missing folder: it names a file where a folder should be.
    const why = whyFolderRefusesWrites(folder);
    if (why !== null && why !== 'it does not exist') throw new FolderNotWritableError(folder, `the database ${file} cannot be created there`, why);
    throw new CliError(`cannot create the database ${file}: the folder ${folder} does not exist`);
  }
}

/** The service on a database file, opened (and migrated) after `checkDatabaseFile`. */
export function openCliService(file: string, mode: 'existing' | 'create'): Service {
  checkDatabaseFile(file, mode);
  try {
    return openService(file);
  } catch (err) {
    throw new CliError(cannotOpen(file, err));
  }
}

/** Runs `fn` on the file's service, closing it after; the service's refusals become messages. */
export function withCliService<T>(dbOption: string | undefined, fn: (service: Service) => T): T {
  const service = openCliService(databaseFile(dbOption), 'existing');
  try {
    return fn(service);
  } catch (err) {
    if (err instanceof Refusal || isFault(err)) throw new CliError(err.message);
    throw err;
  } finally {
    service.close();
  }
}

export function cannotOpen(file: string, err: unknown): string {
  // A damaged file, a full disk, a folder that cannot be written: their own words name the file or folder.
  const cause = err instanceof Error && isFault(err.cause) ? err.cause : err;
  if (isFault(cause)) return cause.message;
  return `cannot open the database ${file}: ${(err as Error).message}`;
}

/** `1 company`, `3 companies`. */
export function plural(n: number, one: string, many: string): string {
  return `${n} ${n === 1 ? one : many}`;
}

/** A plain text table: a header row, then rows, columns padded to their widest cell. */
export function table(header: readonly string[], rows: readonly (readonly string[])[]): string {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const line = (cells: readonly string[]) =>
    cells
      .map((c, i) => (i === cells.length - 1 ? c : c.padEnd(widths[i])))
      .join('  ')
      .trimEnd();
  return [line(header), ...rows.map(line)].join('\n') + '\n';
}

export function write(stream: NodeJS.WritableStream, text: string): void {
  stream.write(text.endsWith('\n') ? text : text + '\n');
}
