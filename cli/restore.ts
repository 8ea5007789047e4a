/**
 * `labeldesk restore`: a verified backup in place of the database (docs/operations.md#backups-and-restore).
 */
import path from 'node:path';
import { backupSettingsFrom, restoreBackup, RestoreRefused } from '../service/backups';
import { CliError, databaseFile, EXIT_OK, parseCommandArgs, UsageError, write, type Command, type Io } from './args';

const USAGE = 'labeldesk restore --from BACKUP [--db FILE] [--force]';

export const restoreCommand: Command = {
  name: 'restore',
  summary: 'put a verified backup in place of the database',
  usage: USAGE,
  help: `usage: ${USAGE}

Verifies the backup first, as a backup is verified when taken (integrity check, audit chains,
and its SHA-256 and counts against the manifest beside it, when there is one), and changes
nothing when it does not verify. Refuses while anything has the database open (a running
LabelDesk service or command), unless --force. Then backs up the current database (into the
backup folder, as 'labeldesk backup' does), moves it aside as FILE.replaced-<UTC time> (its
-wal and -shm with it), and copies the backup in. The folder may be another machine's: the
restored file is the whole database.

options:
  --from BACKUP   the backup file (labeldesk-<time>.sqlite, or labeldesk.sqlite of an archive)
  --db FILE       the database to replace or create (default: the per-user data folder)
  --force         restore even though the database seems in use: only when no LabelDesk runs on it

examples:
  labeldesk restore --from backups/labeldesk-2026-12-07T101500Z.sqlite --db labeldesk.db
`,
  async run(argv: string[], io: Io): Promise<number> {
    const { values } = parseCommandArgs(argv, { from: { type: 'string' }, db: { type: 'string' }, force: { type: 'boolean' } }, false);
    if (values.from === undefined) throw new UsageError('which backup? give --from BACKUP');
    const dbFile = databaseFile(values.db);
    let settings;
    try {
      settings = backupSettingsFrom(dbFile);
    } catch (err) {
      throw new CliError((err as Error).message);
    }
    try {
      const result = await restoreBackup({ from: path.resolve(values.from), dbFile, force: values.force === true, backupDir: settings.dir, keep: settings.keep });
      if (result.before && !result.before.ok) write(io.err, `warning: the backup of the replaced database failed (${result.before.failure}); the file itself is kept aside`);
      else if (result.before) write(io.out, `the replaced database was backed up first: ${result.before.path}`);
      if (result.replacedAside) write(io.out, `the replaced database is kept aside as ${result.replacedAside}`);
      write(io.out, `restored ${path.resolve(values.from)} to ${dbFile}`);
      return EXIT_OK;
    } catch (err) {
      if (err instanceof RestoreRefused) throw new CliError(`restore refused: ${err.message}`);
      throw err;
    }
  },
};
