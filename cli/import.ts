/** `labeldesk import`: a bundle file into the database, all or nothing. */
import { createReadStream, statSync } from 'node:fs';
import path from 'node:path';
import type { BundleSource, ImportPhase } from '../service/bundle-import';
import { backupsNamed } from '../host/open-service';
import { backupBefore, backupSettingsFrom, type BackupRun } from '../service/backups';
import {
  CliError,
  databaseFile,
  EXIT_FAILURE,
  EXIT_OK,
  openCliService,
  parseCommandArgs,
  plural,
  UsageError,
  write,
  type Command,
  type Io,
} from './args';

const USAGE = 'labeldesk import [--db FILE] BUNDLE.json';
/** From this size on, a worker thread parses while the main thread writes. */
const PARALLEL_FROM_BYTES = 16 * 1024 * 1024;
const READ_CHUNK = 1024 * 1024;
/** Set to 1, the import prints the wall and CPU time of each of its steps on standard error. */
export const PHASES_ENV = 'LABELDESK_IMPORT_PHASES';

export const importCommand: Command = {
  name: 'import',
  summary: 'validate a bundle and import it in one transaction (upsert by id)',
  usage: USAGE,
  help: `usage: ${USAGE}

Reads a bundle (JSON: version, companies, apiKeys, labelReports), checks all of it and imports
it in one transaction: companies, API keys and label reports are inserted or replaced by id.
When anything is wrong, every problem is printed with its JSON path, nothing is imported and
the exit code is 1. Use - to read the bundle from standard input.

options:
  --db FILE   the database (created when missing; default: the per-user data folder)

examples:
  labeldesk import --db labeldesk.db bundle.json
  labeldesk export --db old.db | labeldesk import --db new.db -
`,
  async run(argv: string[], io: Io): Promise<number> {
    const { values, positionals } = parseCommandArgs(
      argv,
      { db: { type: 'string' } },
      true,
    );
    if (positionals.length === 0) throw new UsageError('which bundle? give the file to import');
    if (positionals.length > 1) throw new UsageError(`give one bundle file, not ${positionals.length}`);
    const bundle = positionals[0];
    let source: BundleSource;
    let size = 0;
    if (bundle === '-') {
      source = process.stdin;
    } else {
      const file = path.resolve(bundle);
      try {
        const stat = statSync(file);
        if (!stat.isFile()) throw new CliError(`cannot read the bundle ${file}: it is not a file`);
        size = stat.size;
      } catch (err) {
        if (err instanceof CliError) throw err;
        const code = (err as NodeJS.ErrnoException).code;
        throw new CliError(`cannot read the bundle ${file}: ${code === 'ENOENT' ? 'no such file' : (err as Error).message}`);
      }
      source = createReadStream(file, { highWaterMark: READ_CHUNK });
    }

    const dbFile = databaseFile(values.db);
    // A database that holds anything is backed up first (docs/operations.md#backups-and-restore).
    let before: BackupRun | null;
    try {
      before = await backupBefore('import', dbFile, backupSettingsFrom(dbFile));
    } catch (err) {
      throw new CliError((backupsNamed(err, dbFile) as Error).message);
    }
    const service = openCliService(dbFile, 'create');
    if (before) service.backups.record(before);
    try {
      const onPhase = process.env[PHASES_ENV] === '1' ? phaseTimer((line) => write(io.err, line)) : undefined;
      const result = await service.importBundle(source, { parallel: size >= PARALLEL_FROM_BYTES, onPhase });
      const { counts } = result;
      if (result.ok) {
        write(
          io.out,
          `imported ${plural(counts.companies, 'company', 'companies')}, ${plural(counts.apiKeys, 'API key', 'API keys')}, ${plural(counts.labelReports, 'label report', 'label reports')}`,
        );
        return EXIT_OK;
      }
      for (const problem of result.problems) write(io.err, `${problem.path}: ${problem.message}`);
      const shown = result.problems.length < result.problemCount ? ` (the first ${result.problems.length} are shown)` : '';
      write(io.err, `import failed: ${plural(result.problemCount, 'problem', 'problems')}${shown}; nothing was imported`);
      return EXIT_FAILURE;
    } catch (err) {
      if (err instanceof CliError) throw err;
      throw new CliError(`import failed, nothing was imported: ${(err as Error).message}`);
    } finally {
      service.close();
    }
  },
};

/**
 * Times each step: wall seconds, and the CPU seconds (user + system) of the whole process, its
 * parse workers included, which a busy machine disturbs less than the wall time.
 */
function phaseTimer(print: (line: string) => void): (phase: ImportPhase) => void {
  let current: { phase: ImportPhase; wall: number; cpu: number } | null = null;
  const cpuSeconds = () => {
    const { user, system } = process.cpuUsage();
    return (user + system) / 1e6;
  };
  return (phase) => {
    const wall = performance.now() / 1000;
    const cpu = cpuSeconds();
    if (current) print(`phase ${current.phase}: ${(wall - current.wall).toFixed(2)} s wall, ${(cpu - current.cpu).toFixed(2)} s cpu`);
    if (phase === 'done') print(`phase total: cpu ${cpu.toFixed(2)} s since the process started`);
    current = { phase, wall, cpu };
  };
}
