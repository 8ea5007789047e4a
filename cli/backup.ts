/**
 * `labeldesk backup`: a verified backup of the database, online (a service may go on writing
 * to it), into a folder; or, with --archive, a folder for the retention period that a person
 * can read without LabelDesk (docs/operations.md#backups-and-restore).
 */
import { copyFileSync, existsSync, mkdirSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { VERSION } from '../contract/version';
import { recordBackupRun } from '../db/backup';
import { parseListQuery } from '../query/list-query';
import { PERMISSIONS } from '../schema/report';
import { backupSettingsFrom, damageFoundBy, runRecord, sha256Of, takeBackup, type BackupRun } from '../service/backups';
import { CSV_BOM, csvLine, REPORT_TABLE_CSV_COLUMNS } from '../service/report-csv';
import { backupsNamed, openService } from '../host/open-service';
import { checkBeforeOpen } from '../db/open-check';
import { checkDatabaseFile, CliError, databaseFile, EXIT_FAILURE, EXIT_OK, parseCommandArgs, plural, write, type Command, type Io } from './args';

const USAGE = ['labeldesk backup [--db FILE] [--to DIR]', 'labeldesk backup [--db FILE] --archive DIR'].join('\n       ');

export const ARCHIVE_FORMAT = 'labeldesk-archive';
export const ARCHIVE_FORMAT_VERSION = 1;

export const backupCommand: Command = {
  name: 'backup',
  summary: 'back up the database (online, verified), or write an archive folder',
  usage: USAGE,
  help: `usage: ${USAGE}

Copies the database with SQLite's online backup API, in small steps, so a service writing to it
is held up only for a moment; the copy holds one moment of it. The copy is then opened read-only
and verified: PRAGMA integrity_check, the audit chains (as 'labeldesk audit verify'), and its
counts (reports, people, review entries, change log entries, alarms, webhooks, companies, keys)
equal to the database's at that moment. It is written under a temporary name and renamed to
labeldesk-<UTC time>.sqlite only once verified, with a manifest (.json) beside it; then the folder
is rotated (LABELDESK_BACKUP_KEEP, default 7 daily, 4 weekly, 12 monthly). The result is recorded
in the database too. Exit 0 when the backup verified, 1 when it did not (nothing is left but the
manifest <name>.failed.json).

  --archive DIR   writes DIR/labeldesk-archive-<UTC time>/ instead: the verified SQLite file,
                  the audit trail as CSV, the reports as CSV, a README.txt that says what each
                  file is, and manifest.json (format version, LabelDesk version, time, counts,
                  SHA-256 of every file), for the retention period

options:
  --db FILE       the database (default: the per-user data folder)
  --to DIR        the folder (default: LABELDESK_BACKUP_DIR, else backups/ beside the database)

examples:
  labeldesk backup --db labeldesk.db --to /mnt/share/labeldesk-backups
  labeldesk backup --db labeldesk.db --archive /mnt/archive
`,
  async run(argv: string[], io: Io): Promise<number> {
    const { values } = parseCommandArgs(argv, { db: { type: 'string' }, to: { type: 'string' }, archive: { type: 'string' } }, false);
    const dbFile = databaseFile(values.db);
    checkDatabaseFile(dbFile, 'existing');
    // A damaged file is refused in the words every command uses, before a copy of it fails.
    try {
      checkBeforeOpen(dbFile);
    } catch (err) {
      throw backupsNamed(err, dbFile);
    }
    if (values.archive !== undefined) {
      if (values.to !== undefined) throw new CliError('give --to or --archive, not both');
      return writeArchive(dbFile, path.resolve(values.archive), io);
    }
    let settings;
    try {
      settings = backupSettingsFrom(dbFile);
    } catch (err) {
      throw new CliError((err as Error).message);
    }
    const dir = values.to === undefined ? settings.dir : path.resolve(values.to);
    const run = await takeBackup({ dbFile, dir, reason: 'command', keep: settings.keep });
    // Into a damaged file nothing is written, not even the record of its failed backup.
    const damage = damageFoundBy(run, dbFile, settings.dir);
    if (damage) throw damage;
    recordBackupRun(dbFile, runRecord(run));
    return report(run, io);
  },
};

function countsLine(run: BackupRun): string {
  const c = run.counts;
  const part = (n: number | null | undefined, one: string, many: string) => (n === null || n === undefined ? null : plural(n, one, many));
  return [
    part(c.reports, 'report', 'reports'),
    part(c.people, 'person', 'people'),
    part(c.reviewEntries, 'review entry', 'review entries'),
    part(c.changeLogEntries, 'change log entry', 'change log entries'),
    part(c.alarms, 'alarm', 'alarms'),
    part(c.webhooks, 'webhook', 'webhooks'),
  ]
    .filter((p) => p !== null)
    .join(', ');
}

function report(run: BackupRun, io: Io): number {
  if (!run.ok) {
    write(io.err, `backup failed, no backup was kept: ${run.failure}`);
    return EXIT_FAILURE;
  }
  const chains = run.manifest.verification.chains;
  write(io.out, `backup ${run.path} (${run.bytes} bytes) verified: integrity ok, ${chains ? `${plural(chains.checked, 'entry', 'entries')} in ${plural(chains.chains, 'chain', 'chains')} sound` : 'no audit chains in this schema'}, ${countsLine(run)}`);
  if (run.removed.length > 0) write(io.out, `rotation removed ${plural(run.removed.length, 'older backup', 'older backups')}: ${run.removed.join(', ')}`);
  return EXIT_OK;
}

const README = (stamp: string, run: BackupRun) => `LabelDesk archive, format ${ARCHIVE_FORMAT} version ${ARCHIVE_FORMAT_VERSION}
Written ${stamp} by LabelDesk ${VERSION} from ${run.manifest.source}.

This folder holds one moment of a LabelDesk database, for its retention period. Every file can
be read without LabelDesk:

  labeldesk.sqlite   the whole database: an SQLite 3 file (schema version ${run.manifest.schemaVersion}).
                     Open it with the sqlite3 command line tool or any SQLite reader, e.g.
                     sqlite3 -readonly labeldesk.sqlite .tables   (then .schema TABLE)
  audit-trail.csv    every change log and review entry (acknowledgements, decisions with their
                     signatures, comments), with its hash chain, as 'labeldesk audit export'
                     writes it: CSV (RFC 4180), UTF-8 with a byte order mark
  report-access.csv  who viewed, printed or exported which report, and when, with its hash
                     chain, as 'labeldesk audit export --access' writes it: CSV as above
  reports.csv        every label report, one line per company that sees it, with its figures:
                     the columns of the report browser's Download CSV, after viewedBy
  manifest.json      the format and its version, the LabelDesk version, the time, the counts
                     of the database and the SHA-256 of each file above. Check a file with
                     sha256sum FILE (or shasum -a 256 FILE) against it.

The SQLite file was verified when written: PRAGMA integrity_check, the audit chains, and the
counts equal to the database's at that moment.
`;

/** The archive folder: the verified copy, the three CSVs, a README and the manifest with every file's SHA-256. */
async function writeArchive(dbFile: string, parent: string, io: Io): Promise<number> {
  if (!existsSync(parent)) mkdirSync(parent, { recursive: true });
  if (!statSync(parent).isDirectory()) throw new CliError(`${parent} is not a folder`);
  const at = new Date();
  const stamp = at.toISOString().replace(/\.\d{3}Z$/, 'Z').replaceAll(':', '');
  let folder = path.join(parent, `labeldesk-archive-${stamp}`);
  for (let n = 1; existsSync(folder); n++) folder = path.join(parent, `labeldesk-archive-${stamp}-${n}`);
  const staging = `${folder}.partial`;
  mkdirSync(staging, { recursive: true });
  try {
    const run = await takeBackup({ dbFile, dir: staging, reason: 'command', now: () => at, keep: { daily: 1, weekly: 0, monthly: 0 } });
    if (!run.ok || !run.path) {
      write(io.err, `archive failed, nothing was written: ${run.failure}`);
      return EXIT_FAILURE;
    }
    const sqliteFile = path.join(staging, 'labeldesk.sqlite');
    copyFileSync(run.path, sqliteFile);
    rmSync(run.path);
    rmSync(run.path.replace(/\.sqlite$/, '.json'), { force: true });
    writeCsvs(sqliteFile, staging);
    writeFileSync(path.join(staging, 'README.txt'), README(at.toISOString(), run));
    const files = [];
    for (const [name, what] of [
      ['labeldesk.sqlite', 'the database, SQLite 3'],
      ['audit-trail.csv', 'every change log and review entry with its hashes, CSV'],
      ['report-access.csv', 'who viewed, printed or exported which report, with its hashes, CSV'],
      ['reports.csv', 'every label report per company that sees it, CSV'],
      ['README.txt', 'what each file is, plain text'],
    ] as const) {
      const file = path.join(staging, name);
      files.push({ name, what, bytes: statSync(file).size, sha256: await sha256Of(file) });
    }
    const manifest = {
      format: ARCHIVE_FORMAT,
      formatVersion: ARCHIVE_FORMAT_VERSION,
      labeldeskVersion: VERSION,
      schemaVersion: run.manifest.schemaVersion,
      at: at.toISOString(),
      source: run.manifest.source,
      counts: run.counts,
      verification: run.manifest.verification,
      files,
    };
    writeFileSync(path.join(staging, 'manifest.json'), JSON.stringify(manifest, null, 2) + '\n');
    renameSync(staging, folder);
    write(io.out, `archive ${folder}: ${files.map((f) => f.name).join(', ')}, manifest.json; ${countsLine(run)}`);
    return EXIT_OK;
  } finally {
    rmSync(staging, { recursive: true, force: true });
  }
}

/**
 * The audit trail CSV (as `labeldesk audit export`), the access CSV (as `--access`) and the reports CSV, read from a scratch
 * copy of the archived file: opening a database writes to it (its journal mode), and the
 * archived file must stay as verified.
 */
function writeCsvs(sqliteFile: string, folder: string): void {
  const scratchDir = path.join(tmpdir(), `labeldesk-archive-${process.pid}-${Date.now()}`);
  mkdirSync(scratchDir, { recursive: true });
  const scratch = path.join(scratchDir, 'scratch.sqlite');
  copyFileSync(sqliteFile, scratch);
  const service = openService(scratch, { backup: { dir: path.join(scratchDir, 'backups'), everyHours: 0 } });
  try {
    let trail = CSV_BOM;
    for (const line of service.audit.csv()) trail += line;
    writeFileSync(path.join(folder, 'audit-trail.csv'), trail);
    let access = CSV_BOM;
    for (const line of service.access.csv()) access += line;
    writeFileSync(path.join(folder, 'report-access.csv'), access);
    let reports = CSV_BOM + csvLine(['viewedBy', ...REPORT_TABLE_CSV_COLUMNS]);
    const query = parseListQuery({ order: 'created[asc]' });
    for (const company of service.companies.all()) {
      const caller = { keyId: 'archive', companyId: company.id, permissions: new Set(PERMISSIONS) };
      const prefix = csvLine([company.id]).slice(0, -2) + ',';
      let header = true;
      for (const chunk of service.csv.table(caller, query)) {
        // The first chunk is the header, written once above.
        if (header) {
          header = false;
          continue;
        }
        for (const record of csvRecords(chunk)) reports += prefix + record + '\r\n';
      }
    }
    writeFileSync(path.join(folder, 'reports.csv'), reports);
  } finally {
    service.close();
    rmSync(scratchDir, { recursive: true, force: true });
  }
}

/** The records of CSV text, each without its CRLF: a CRLF inside quotes belongs to its field. */
function* csvRecords(text: string): Generator<string> {
  let start = 0;
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (ch === '"') quoted = !quoted;
    else if (!quoted && ch === '\r' && text[i + 1] === '\n') {
      yield text.slice(start, i);
      start = i + 2;
      i++;
    }
  }
  if (start < text.length) yield text.slice(start);
}
