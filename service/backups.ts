/**
 * Backups and restore (docs/operations.md#backups-and-restore): a verified copy of the database,
 * named by its UTC time, written to a temporary name in the backup folder and renamed only once
 * verified, with a JSON manifest beside it; the rotation that keeps 7 daily, 4 weekly and 12
 * monthly backups; and the restore, which verifies the backup the same way before it switches.
 *
 * Verification opens the copy read-only: `PRAGMA integrity_check`, the audit chains as
 * `labeldesk audit verify` checks them, and the counts (reports, people, review entries, change
 * log entries, alarms, webhooks, companies, keys) equal to the source's in the snapshot the copy
 * was made from.
 */
import { createHash } from 'node:crypto';
import { createReadStream, existsSync, fsyncSync, closeSync, openSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync, copyFileSync } from 'node:fs';
import path from 'node:path';
import { VERSION } from '../contract/version';
import type { ChainReport } from '../db/audit-chain';
import {
  COUNTED_TABLES,
  copyDatabase,
  inspectCopy,
  nobodyElseHasOpen,
  schemaVersionOf,
  type BackupCounts,
  type BackupRunRecord,
  type CopyInspection,
  type CountName,
} from '../db/backup';
import { checkpointFileOf } from '../db/audit-checkpoints';
import { DataStore } from '../db/data-store';
import { DatabaseDamagedError, databaseFault, DiskFullError, fileFault, FolderNotWritableError, isDiskFull, makeFolder, whyNoRoomFor } from '../db/faults';
import { AuditTrail } from './audit-trail';
import { verifyOffThread } from './backup-verify-worker';
import { tmpdir } from 'node:os';
import { SCHEMA_VERSION } from '../db/database';

export type { BackupCounts, BackupRunRecord } from '../db/backup';

export const BACKUP_DIR_ENV = 'LABELDESK_BACKUP_DIR';
export const BACKUP_EVERY_HOURS_ENV = 'LABELDESK_BACKUP_EVERY_HOURS';
export const BACKUP_KEEP_ENV = 'LABELDESK_BACKUP_KEEP';

/** The manifest's format: a reader years from now checks these two first. */
export const MANIFEST_FORMAT = 'labeldesk-backup';
export const MANIFEST_FORMAT_VERSION = 1;

/** Why a backup was taken. */
export type BackupReason = 'schedule' | 'manual' | 'command' | 'migration' | 'import' | 'restore';

export interface KeepPolicy {
  daily: number;
  weekly: number;
  monthly: number;
}

export const DEFAULT_KEEP: KeepPolicy = { daily: 7, weekly: 4, monthly: 12 };
export const DEFAULT_EVERY_HOURS = 24;
/** How long past its time a scheduled backup may be missing before the desk says it is overdue. */
export const OVERDUE_GRACE_MS = 60 * 60 * 1000;
/** A database never backed up gets its first scheduled backup this long after the service starts, so no start waits for one. */
export const FIRST_BACKUP_AFTER_MS = 10 * 60 * 1000;
/** After a failed scheduled backup, the next try comes this much later. */
export const RETRY_FAILED_AFTER_MS = 60 * 60 * 1000;

export interface BackupSettings {
  /** The folder the backups go to. */
  dir: string;
  /** Hours between scheduled backups; 0: no schedule. */
  everyHours: number;
  keep: KeepPolicy;
}

/**
 * The settings from the environment: LABELDESK_BACKUP_DIR (default: `backups/` beside the
 * database, which for the default database is the data folder), LABELDESK_BACKUP_EVERY_HOURS
 * (default 24; 0 turns the schedule off) and LABELDESK_BACKUP_KEEP (daily,weekly,monthly;
 * default 7,4,12). A value that does not parse throws, naming the variable.
 */
export function backupSettingsFrom(dbFile: string, env: Record<string, string | undefined> = process.env): BackupSettings {
  const dirText = env[BACKUP_DIR_ENV]?.trim();
  const dir = dirText ? path.resolve(dirText) : path.join(path.dirname(path.resolve(dbFile)), 'backups');
  const everyText = env[BACKUP_EVERY_HOURS_ENV]?.trim();
  let everyHours = DEFAULT_EVERY_HOURS;
  if (everyText) {
    everyHours = Number(everyText);
    if (!/^\d+(\.\d+)?$/.test(everyText) || !Number.isFinite(everyHours) || everyHours > 24 * 366) {
      throw new Error(`${BACKUP_EVERY_HOURS_ENV}='${everyText}': give the hours between backups, a number from 0 (no schedule) to 8784`);
    }
  }
  const keepText = env[BACKUP_KEEP_ENV]?.trim();
  let keep = DEFAULT_KEEP;
  if (keepText) {
    const parts = keepText.split(',').map((p) => p.trim());
    if (parts.length !== 3 || parts.some((p) => !/^\d{1,4}$/.test(p)) || parts.every((p) => Number(p) === 0)) {
      throw new Error(`${BACKUP_KEEP_ENV}='${keepText}': give how many daily, weekly and monthly backups to keep, as 7,4,12 (not all 0)`);
    }
    const [daily, weekly, monthly] = parts.map(Number);
    keep = { daily, weekly, monthly };
  }
  return { dir, everyHours, keep };
}

const NAME = /^labeldesk-(\d{4})-(\d\d)-(\d\d)T(\d\d)(\d\d)(\d\d)Z(?:-(\d+))?\.sqlite$/;

/** `labeldesk-2026-12-07T101500Z.sqlite`: the backup's UTC time to the second. */
export function backupFileName(at: Date, n = 0): string {
  const stamp = at.toISOString().replace(/\.\d{3}Z$/, 'Z').replaceAll(':', '');
  return `labeldesk-${stamp}${n > 0 ? `-${n}` : ''}.sqlite`;
}

/** The time a backup file's name gives, or null for any other file. */
export function backupTimeOf(name: string): Date | null {
  const m = NAME.exec(name);
  if (!m) return null;
  const at = new Date(Date.UTC(+m[1], +m[2] - 1, +m[3], +m[4], +m[5], +m[6]));
  return Number.isNaN(at.getTime()) ? null : at;
}

/** The audit checkpoints beside a backup file: the same name, `.checkpoints.jsonl` for `.sqlite`. */
export function checkpointsFileOf(backupFile: string): string {
  return backupFile.replace(/\.sqlite$/, '') + '.checkpoints.jsonl';
}

/** The manifest beside a backup file: the same name, `.json` for `.sqlite`. */
export function manifestFileOf(backupFile: string): string {
  return backupFile.replace(/\.sqlite$/, '') + '.json';
}

/** A `Date`'s UTC day, ISO week and month, as keys. */
function dayKey(at: Date): string {
  return at.toISOString().slice(0, 10);
}
function monthKey(at: Date): string {
  return at.toISOString().slice(0, 7);
}
function weekKey(at: Date): string {
  // ISO 8601: the week belongs to the year of its Thursday.
  const d = new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth(), at.getUTCDate()));
  const weekday = d.getUTCDay() || 7;
  d.setUTCDate(d.getUTCDate() + 4 - weekday);
  const yearStart = Date.UTC(d.getUTCFullYear(), 0, 1);
  const week = Math.ceil(((d.getTime() - yearStart) / 86_400_000 + 1) / 7);
  return `${d.getUTCFullYear()}-W${String(week).padStart(2, '0')}`;
}

/**
 * Which backups to keep, by index into `times`: the newest of each of the `daily` most recent
 * UTC days that have a backup, of each of the `weekly` most recent ISO weeks and of each of the
 * `monthly` most recent months; and always the newest of all. Pure: the caller deletes the rest.
 */
export function backupsToKeep(times: readonly Date[], keep: KeepPolicy): Set<number> {
  const order = times.map((t, i) => i).sort((a, b) => times[b].getTime() - times[a].getTime() || b - a);
  const kept = new Set<number>();
  if (order.length > 0) kept.add(order[0]);
  for (const [key, limit] of [
    [dayKey, keep.daily],
    [weekKey, keep.weekly],
    [monthKey, keep.monthly],
  ] as const) {
    const seen = new Set<string>();
    for (const i of order) {
      const k = key(times[i]);
      if (seen.has(k)) continue;
      if (seen.size >= limit) break;
      seen.add(k);
      kept.add(i);
    }
  }
  return kept;
}

/** The manifest written beside each backup (and beside a failed one, as `….failed.json`). */
export interface BackupManifest {
  format: typeof MANIFEST_FORMAT;
  formatVersion: typeof MANIFEST_FORMAT_VERSION;
  labeldeskVersion: string;
  /** The database's schema version in the copy. */
  schemaVersion: number;
  at: string;
  reason: BackupReason;
  /** The database it was taken of. */
  source: string;
  /** The backup file's name, in the manifest's folder. */
  file: string;
  bytes: number | null;
  sha256: string | null;
  /** The audit checkpoints file beside the database (FILE.checkpoints.jsonl), copied beside the backup; null when there was none. */
  checkpoints: { file: string; bytes: number; sha256: string } | null;
  counts: Partial<BackupCounts>;
  verification: {
    ok: boolean;
    integrity: string[];
    chains: { checked: number; chains: number; problems: number } | null;
    countsMatch: boolean;
  };
  failure: string | null;
}

/** What a verification found: ok, or each problem in words. */
export interface Verification {
  ok: boolean;
  problems: string[];
  inspection: CopyInspection | null;
}

/** The problems of an inspected copy: integrity, chains, and counts against `expected` when given. */
export function judgeCopy(inspection: CopyInspection, expected?: Partial<BackupCounts>): string[] {
  const problems: string[] = [];
  if (inspection.integrity.length !== 1 || inspection.integrity[0] !== 'ok') {
    problems.push(`integrity check failed: ${inspection.integrity.slice(0, 3).join('; ')}`);
  }
  if (inspection.schemaVersion > SCHEMA_VERSION) {
    problems.push(`the copy has schema version ${inspection.schemaVersion}, newer than this LabelDesk understands (${SCHEMA_VERSION})`);
  }
  const chains = inspection.chains;
  if (chains && chains.problems.length > 0) {
    const first = chains.problems[0];
    problems.push(`${chains.problems.length} audit chain(s) broken, the first: report ${first.reportId}, ${first.table} entry ${first.entry}: ${first.detail}`);
  }
  const access = inspection.access?.problem;
  if (access) problems.push(`the access chain is broken: report_access id ${access.id}: ${access.detail}`);
  if (expected) {
    for (const name of Object.keys(COUNTED_TABLES) as CountName[]) {
      if (!(name in expected)) continue;
      if (inspection.counts[name] !== expected[name]) problems.push(`${name}: the copy holds ${inspection.counts[name]}, the source held ${expected[name]}`);
    }
  }
  return problems;
}

/** Inspects a copy; a file that is no database is a problem too, not an exception. */
function inspect(file: string, expected?: Partial<BackupCounts>): Verification {
  let inspection: CopyInspection;
  try {
    inspection = inspectCopy(file);
  } catch (err) {
    return { ok: false, problems: [`cannot read the copy: ${(err as Error).message}`], inspection: null };
  }
  const problems = judgeCopy(inspection, expected);
  return { ok: problems.length === 0, problems, inspection };
}

export async function sha256Of(file: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(file)) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

function syncFile(file: string): void {
  const fd = openSync(file, 'r+');
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

function chainSummary(chains: ChainReport | null): BackupManifest['verification']['chains'] {
  return chains && { checked: chains.checked, chains: chains.chains, problems: chains.problems.length };
}

/** One backup taken: its record, its file (null when it failed) and its manifest. */
export interface BackupRun extends BackupRunRecord {
  /** The folder it went to. */
  dir: string;
  /** The backup file's full path; null when it failed. */
  path: string | null;
  manifest: BackupManifest;
  /** Backup files the rotation removed. */
  removed: string[];
}

export interface TakeBackupOptions {
  dbFile: string;
  dir: string;
  reason: BackupReason;
  now?: () => Date;
  keep?: KeepPolicy;
  /** Pages per step of the online copy (db/backup.ts PAGES_PER_STEP). */
  pagesPerStep?: number;
  /** Backup files the rotation leaves alone this time (the one a restore is taken from). */
  protect?: readonly string[];
}

/**
 * Takes one backup of `dbFile` into `dir`: copies it online to a temporary name, verifies the
 * copy, writes its manifest under a temporary name too, and renames both to their names of time
 * once verified and written; then rotates the folder. A failure (a full disk among them) leaves
 * no backup file and no half-written one, only `<name>.failed.json` when that fits: rotation and
 * restore see a backup by its name, so a name of time is only ever given to a whole file. Does
 * not record the run in the database: the caller does, on its own connection.
 */
export async function takeBackup(options: TakeBackupOptions): Promise<BackupRun> {
  const now = options.now ?? (() => new Date());
  const at = now();
  try {
    makeFolder(options.dir);
  } catch (err) {
    // ENOENT from a mkdir whose parent is there: a system folder (/proc) that takes no folders.
    const noNewFolders = (err as NodeJS.ErrnoException).code === 'ENOENT' && existsSync(path.dirname(path.resolve(options.dir)));
    const fault = noNewFolders ? new FolderNotWritableError(options.dir, NOT_WRITTEN, 'the folder it is in takes no new folders') : fileFault(err, options.dir, NOT_WRITTEN);
    return unwritable(options, at, fault?.message ?? `the folder ${options.dir} cannot be made: ${(err as Error).message}`);
  }
  let n = 0;
  let name = backupFileName(at);
  while (existsSync(path.join(options.dir, name)) || existsSync(failedManifestFileOf(path.join(options.dir, name)))) name = backupFileName(at, ++n);
  const final = path.join(options.dir, name);
  const partial = path.join(options.dir, `.${name}.partial`);
  const sourceCheckpoints = checkpointFileOf(path.resolve(options.dbFile));
  const finalCheckpoints = checkpointsFileOf(final);
  const partialCheckpoints = `${partial}.checkpoints.jsonl`;
  const partialManifest = `${partial}.json`;
  let checkpoints: BackupManifest['checkpoints'] = null;
  let counts: Partial<BackupCounts> = {};
  let schemaVersion = 0;
  let verification: Verification = { ok: false, problems: [], inspection: null };
  let bytes: number | null = null;
  let sha256: string | null = null;
  let ok = false;
  const manifestOf = (failure: string | null): BackupManifest => ({
    format: MANIFEST_FORMAT,
    formatVersion: MANIFEST_FORMAT_VERSION,
    labeldeskVersion: VERSION,
    schemaVersion,
    at: at.toISOString(),
    reason: options.reason,
    source: path.resolve(options.dbFile),
    file: name,
    bytes: failure === null ? bytes : null,
    sha256: failure === null ? sha256 : null,
    checkpoints: failure === null ? checkpoints : null,
    counts,
    verification: {
      ok: failure === null,
      integrity: verification.inspection?.integrity ?? [],
      chains: chainSummary(verification.inspection?.chains ?? null),
      countsMatch: failure === null || !verification.problems.some((p) => /the copy holds/.test(p)),
    },
    failure,
  });
  try {
    const sides = sourceCheckpoints ? [{ from: sourceCheckpoints, to: partialCheckpoints }] : [];
    const copied = await copyDatabase(options.dbFile, partial, options.pagesPerStep, sides);
    counts = copied.counts;
    schemaVersion = copied.schemaVersion;
    const withCheckpoints = existsSync(partialCheckpoints) ? partialCheckpoints : null;
    verification = await verifyOffThread(partial, copied.counts, withCheckpoints);
    bytes = statSync(partial).size;
    if (verification.ok) {
      sha256 = await sha256Of(partial);
      if (withCheckpoints) checkpoints = { file: path.basename(finalCheckpoints), bytes: statSync(withCheckpoints).size, sha256: await sha256Of(withCheckpoints) };
      writeWhole(partialManifest, JSON.stringify(manifestOf(null), null, 2) + '\n');
      if (withCheckpoints) {
        syncFile(withCheckpoints);
        renameSync(withCheckpoints, finalCheckpoints);
      }
      syncFile(partial);
      renameSync(partial, final);
      renameSync(partialManifest, manifestFileOf(final));
      ok = true;
    }
  } catch (err) {
    const fault = copyFault(err, options.dir, path.join(options.dir, name), options.dbFile);
    const words = fault && !(fault instanceof DatabaseDamagedError) ? fault.message : `the copy failed: ${(err as Error).message}`;
    verification = { ok: false, problems: [...verification.problems, words], inspection: verification.inspection };
  } finally {
    rmSync(partial, { force: true });
    rmSync(partial + '-journal', { force: true });
    rmSync(partialCheckpoints, { force: true });
    rmSync(partialManifest, { force: true });
  }
  const failure = ok ? null : verification.problems.join('; ') || 'the copy failed';
  const manifest = manifestOf(failure);
  let removed: string[] = [];
  if (ok) {
    try {
      removed = rotate(options.dir, options.keep ?? DEFAULT_KEEP, options.protect);
    } catch {
      // The backup is verified and in place; an older one left over is removed by the next rotation.
    }
  } else {
    const failed = failedManifestFileOf(final);
    try {
      // Under a temporary name first, like the backup: a full disk leaves no half of it.
      writeWhole(`${partialManifest}.failed`, JSON.stringify(manifest, null, 2) + '\n');
      renameSync(`${partialManifest}.failed`, failed);
    } catch {
      // No room even for the failure's manifest: the run's record in the database says it.
    } finally {
      rmSync(`${partialManifest}.failed`, { force: true });
    }
  }
  return {
    at: manifest.at,
    file: name,
    dir: options.dir,
    path: ok ? final : null,
    bytes: manifest.bytes,
    reason: options.reason,
    ok,
    failure,
    counts,
    sha256: manifest.sha256,
    manifest,
    removed,
  };
}

const NOT_WRITTEN = 'the backup cannot be written there';

/** The manifest of a failed backup: `<name>.failed.json`. */
function failedManifestFileOf(backupFile: string): string {
  return manifestFileOf(backupFile).replace(/\.json$/, '.failed.json');
}

/** Writes `text` to `file` and syncs it; a write the disk cuts short throws. */
function writeWhole(file: string, text: string): void {
  writeFileSync(file, text);
  syncFile(file);
}

/**
 * The fault of a copy that failed, naming the backup folder: a full disk or a folder that
 * refuses the file. SQLite's backup API answers any write the disk refuses with a bare
 * SQLITE_IOERR, so for that the folder is asked whether it has room for a copy of the database
 * (db/faults.ts whyNoRoomFor). Null for any other failure, said in SQLite's or Node's words.
 */
function copyFault(err: unknown, dir: string, file: string, dbFile: string): Error | null {
  const code = String((err as { code?: unknown } | null)?.code ?? '');
  if (isDiskFull(err) || code.startsWith('SQLITE_IOERR')) {
    const why = whyNoRoomFor(dir, databaseBytes(dbFile));
    if (why !== null) return new DiskFullError(dir, `${NOT_WRITTEN} (${why})`, err);
  }
  return fileFault(err, dir, NOT_WRITTEN) ?? databaseFault(err, file, NOT_WRITTEN);
}

/** About the bytes a copy of the database takes: the file and its write-ahead log. */
function databaseBytes(dbFile: string): number {
  const size = (file: string) => (existsSync(file) ? statSync(file).size : 0);
  return size(dbFile) + size(`${dbFile}-wal`);
}

/** The backup files of a folder, with their times. */
export function backupFilesIn(dir: string): { name: string; at: Date }[] {
  if (!existsSync(dir)) return [];
  const files: { name: string; at: Date }[] = [];
  for (const name of readdirSync(dir)) {
    const at = backupTimeOf(name);
    if (at) files.push({ name, at });
  }
  return files;
}

/**
 * Removes the backups `backupsToKeep` does not keep, with their manifests, and the manifests of
 * failed backups older than the newest good one. Returns the names removed.
 */
export function rotate(dir: string, keep: KeepPolicy, protect: readonly string[] = []): string[] {
  const files = backupFilesIn(dir);
  const kept = backupsToKeep(
    files.map((f) => f.at),
    keep,
  );
  const removed: string[] = [];
  files.forEach((f, i) => {
    if (kept.has(i) || protect.includes(f.name)) return;
    rmSync(path.join(dir, f.name), { force: true });
    rmSync(path.join(dir, manifestFileOf(f.name)), { force: true });
    rmSync(checkpointsFileOf(path.join(dir, f.name)), { force: true });
    removed.push(f.name);
  });
  const newest = Math.max(...files.map((f) => f.at.getTime()));
  for (const name of readdirSync(dir)) {
    if (!name.endsWith('.failed.json')) continue;
    const at = backupTimeOf(name.replace(/\.failed\.json$/, '.sqlite'));
    if (at && at.getTime() < newest) rmSync(path.join(dir, name), { force: true });
  }
  return removed;
}

/** Reads the manifest beside a backup, or null when there is none (a file copied by hand). */
export function readManifest(backupFile: string): BackupManifest | null {
  const file = manifestFileOf(backupFile);
  if (!existsSync(file)) return null;
  const manifest = JSON.parse(readFileSync(file, 'utf8')) as BackupManifest;
  if (manifest.format !== MANIFEST_FORMAT) throw new Error(`${file} is no LabelDesk backup manifest`);
  return manifest;
}

/**
 * Verifies a backup file as a backup is verified when taken: integrity, audit chains, and, when
 * its manifest is beside it, its SHA-256 and counts equal to the manifest's.
 */
export async function verifyBackup(
  file: string,
  manifestGiven?: BackupManifest | null | string,
  checkpointsGiven?: string | null,
): Promise<Verification & { manifest: BackupManifest | null }> {
  if (!existsSync(file)) return { ok: false, problems: [`there is no file ${file}`], inspection: null, manifest: null };
  const manifest = manifestGiven === undefined ? readManifestOrProblem(file) : manifestGiven;
  if (typeof manifest === 'string') return { ok: false, problems: [manifest], inspection: null, manifest: null };
  const problems: string[] = [];
  if (manifest?.sha256) {
    const actual = await sha256Of(file);
    if (actual !== manifest.sha256) problems.push(`the file's SHA-256 is ${actual.slice(0, 12)}…, not the manifest's ${manifest.sha256.slice(0, 12)}…: it changed since the backup`);
  }
  const checkpoints = checkpointsGiven === undefined ? (existsSync(checkpointsFileOf(file)) ? checkpointsFileOf(file) : null) : checkpointsGiven;
  if (manifest?.checkpoints) {
    if (checkpoints === null) problems.push(`the audit checkpoints file ${manifest.checkpoints.file} the manifest names is missing`);
    else if ((await sha256Of(checkpoints)) !== manifest.checkpoints.sha256) problems.push(`the audit checkpoints file ${checkpoints} changed since the backup (its SHA-256 is not the manifest's)`);
  }
  const verification = await verifyOffThread(file, manifest?.counts, checkpoints);
  problems.push(...verification.problems);
  return { ok: problems.length === 0, problems, inspection: verification.inspection, manifest };
}

/**
 * A copy verified: integrity, schema version, counts against `expected`, the audit chains, and
 * the signed checkpoints against `checkpoints` (the copy of the file beside the database). On
 * the calling thread; the service and the commands call it through `verifyOffThread`.
 */
export function verifyCopy(file: string, expected: Partial<BackupCounts> | undefined, checkpoints: string | null): Verification {
  return withCheckpointCheck(inspect(file, expected), file, checkpoints);
}

/**
 * Adds to a sound copy's verification the check of its signed audit checkpoints, as `labeldesk
 * audit verify` makes it (AuditTrail's checkpoints.verify): on a scratch copy of the copy and
 * its checkpoints file, since opening a database writes to it and the copy must stay as made.
 */
function withCheckpointCheck(verification: Verification, dbCopy: string, checkpoints: string | null): Verification {
  if (!verification.ok || !verification.inspection || verification.inspection.schemaVersion !== SCHEMA_VERSION) return verification;
  const scratchDir = mkdtempSync(path.join(tmpdir(), 'labeldesk-verify-'));
  try {
    const scratch = path.join(scratchDir, 'copy.sqlite');
    copyFileSync(dbCopy, scratch);
    if (checkpoints) copyFileSync(checkpoints, checkpointFileOf(scratch)!);
    const data = DataStore.open(scratch);
    try {
      const report = new AuditTrail(data).checkpoints.verify();
      const problems = report.findings.map((f) => `audit checkpoints: ${f.message}`);
      return { ok: problems.length === 0, problems, inspection: verification.inspection };
    } finally {
      data.close();
    }
  } catch (err) {
    return { ok: false, problems: [`the audit checkpoints cannot be checked: ${(err as Error).message}`], inspection: verification.inspection };
  } finally {
    rmSync(scratchDir, { recursive: true, force: true });
  }
}

/** A restore refused: nothing was changed. */
export class RestoreRefused extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'RestoreRefused';
  }
}

export interface RestoreOptions {
  from: string;
  dbFile: string;
  /** Restore even while another process has the database open. */
  force?: boolean;
  /** Where the backup of the current file goes first. */
  backupDir: string;
  keep?: KeepPolicy;
  now?: () => Date;
}

export interface RestoreResult {
  /** The backup of the file replaced, taken first; null when there was no file. */
  before: BackupRun | null;
  /** Where the replaced file (and its -wal and -shm, if any) now is; null when there was none. */
  replacedAside: string | null;
  verification: Verification & { manifest: BackupManifest | null };
}

const SIDE_FILES = ['-wal', '-shm', '-journal'] as const;

/**
 * Puts a verified backup in place of `dbFile`: verifies it (refusing a damaged one, changing
 * nothing), refuses while another connection has the database open (unless `force`), backs up
 * the current file, moves it aside as `FILE.replaced-<time>` (with any -wal, -shm), and copies
 * the backup in under a temporary name, renamed into place once on disk.
 */
export async function restoreBackup(options: RestoreOptions): Promise<RestoreResult> {
  const now = options.now ?? (() => new Date());
  const from = path.resolve(options.from);
  const dbFile = path.resolve(options.dbFile);
  if (!existsSync(path.dirname(dbFile))) throw new RestoreRefused(`the folder ${path.dirname(dbFile)} does not exist`);
  if (!existsSync(from)) throw new RestoreRefused(`there is no backup ${from}`);
  // What is verified is what goes in place: the copy beside the database, with the backup's manifest.
  const incoming = `${dbFile}.restoring`;
  const incomingCheckpoints = existsSync(checkpointsFileOf(from)) ? `${incoming}.checkpoints.jsonl` : null;
  copyFileSync(from, incoming);
  if (incomingCheckpoints) copyFileSync(checkpointsFileOf(from), incomingCheckpoints);
  let placed = false;
  try {
    const verification = await verifyBackup(incoming, readManifestOrProblem(from), incomingCheckpoints);
    if (!verification.ok) throw new RestoreRefused(`the backup ${from} does not verify, so nothing was changed: ${verification.problems.join('; ')}`);
    const exists = existsSync(dbFile);
    if (exists && !options.force && !nobodyElseHasOpen(dbFile)) {
      throw new RestoreRefused(
        `${dbFile} is in use (a running LabelDesk service or command has it open), so nothing was changed: stop it first, or give --force if no LabelDesk runs on it`,
      );
    }
    const result = await switchIn(options, dbFile, incoming, incomingCheckpoints, exists, now, path.basename(from));
    placed = true;
    return { ...result, verification };
  } finally {
    if (!placed) {
      rmSync(incoming, { force: true });
      if (incomingCheckpoints) rmSync(incomingCheckpoints, { force: true });
    }
  }
}

async function switchIn(
  options: RestoreOptions,
  dbFile: string,
  incoming: string,
  incomingCheckpoints: string | null,
  exists: boolean,
  now: () => Date,
  protect: string,
): Promise<Omit<RestoreResult, 'verification'>> {
  let before: BackupRun | null = null;
  let replacedAside: string | null = null;
  if (exists) {
    before = await takeBackup({ dbFile, dir: options.backupDir, reason: 'restore', now, keep: options.keep, protect: [protect] });
    const stamp = now().toISOString().replace(/\.\d{3}Z$/, 'Z').replaceAll(':', '');
    replacedAside = `${dbFile}.replaced-${stamp}`;
    for (let n = 1; existsSync(replacedAside); n++) replacedAside = `${dbFile}.replaced-${stamp}-${n}`;
    renameSync(dbFile, replacedAside);
    for (const side of SIDE_FILES) if (existsSync(dbFile + side)) renameSync(dbFile + side, replacedAside + side);
  }
  // The checkpoints file beside belongs to the file it was written for: the replaced one goes aside with it.
  const checkpointsHere = checkpointFileOf(dbFile)!;
  if (existsSync(checkpointsHere)) renameSync(checkpointsHere, checkpointFileOf(replacedAside ?? `${dbFile}.replaced-${Date.now()}`)!);
  if (incomingCheckpoints) {
    syncFile(incomingCheckpoints);
    renameSync(incomingCheckpoints, checkpointsHere);
  }
  syncFile(incoming);
  renameSync(incoming, dbFile);
  return { before, replacedAside };
}

/** The manifest beside a backup; a manifest that is there but cannot be read is a problem in words. */
function readManifestOrProblem(backupFile: string): BackupManifest | null | string {
  try {
    return readManifest(backupFile);
  } catch (err) {
    return `the manifest cannot be read: ${(err as Error).message}`;
  }
}

/** The record of a run, as `backup_runs` keeps it. */
export function runRecord(run: BackupRun): BackupRunRecord {
  return { at: run.at, file: path.join(run.dir, run.file), bytes: run.bytes, reason: run.reason, ok: run.ok, failure: run.failure, counts: run.counts, sha256: run.sha256 };
}

/** One backup as the desk lists it. */
export interface BackupListed extends BackupRunRecord {
  id: number;
  /** Whether the file is still there (the rotation removes old ones). */
  present: boolean;
}

export interface BackupStatus {
  dir: string;
  everyHours: number;
  keep: KeepPolicy;
  backups: BackupListed[];
  lastGood: BackupListed | null;
  /** The newest backup failed. */
  lastFailed: boolean;
  /** The schedule's time passed (with an hour's grace) without a good backup. */
  overdue: boolean;
  /** When the next scheduled backup is due; null without a schedule. */
  nextDueAt: string | null;
  running: boolean;
}

/** The backups of the running service's database: its schedule's state, and one now. */
export class Backups {
  private current: Promise<BackupRun> | null = null;
  private readonly startedAt: Date;

  constructor(
    private readonly data: DataStore,
    readonly settings: BackupSettings,
    private readonly now: () => Date,
    private readonly pagesPerStep?: number,
    /** Called before each copy: signs an audit checkpoint, so each backup holds one of the trail it holds. */
    private readonly beforeCopy: () => void = () => {},
  ) {
    this.startedAt = now();
  }

  /** Takes a backup now, or joins the one being taken; records it in the database. */
  backUp(reason: BackupReason): Promise<BackupRun> {
    if (this.current === null) this.beforeCopy();
    this.current ??= takeBackup({ dbFile: this.data.file, dir: this.settings.dir, reason, now: this.now, keep: this.settings.keep, pagesPerStep: this.pagesPerStep })
      .then((run) => {
        this.record(run);
        return run;
      })
      .finally(() => {
        this.current = null;
      });
    return this.current;
  }

  /** Records a run taken outside (before the migration that made the table). */
  record(run: BackupRun): void {
    if (this.data.isOpen) this.data.write(() => this.data.backups.record(runRecord(run)));
  }

  get running(): boolean {
    return this.current !== null;
  }

  /** Resolves once no backup is being taken. */
  async whenIdle(): Promise<void> {
    await this.current?.catch(() => undefined);
  }

  /**
   * When the next scheduled backup is due: `everyHours` after the last good one (FIRST_BACKUP_AFTER_MS
   * after the start when there is none), and at least RETRY_FAILED_AFTER_MS after a failed one.
   */
  nextDueAt(): Date | null {
    if (this.settings.everyHours <= 0) return null;
    const { last, newest } = this.data.read(() => ({ last: this.data.backups.lastGood(), newest: this.data.backups.list(1)[0] }));
    let due = last ? new Date(last.at).getTime() + this.settings.everyHours * 3_600_000 : this.startedAt.getTime() + FIRST_BACKUP_AFTER_MS;
    if (newest && !newest.ok) due = Math.max(due, new Date(newest.at).getTime() + RETRY_FAILED_AFTER_MS);
    return new Date(due);
  }

  status(): BackupStatus {
    const { runs, lastGood } = this.data.read(() => ({ runs: this.data.backups.list(100), lastGood: this.data.backups.lastGood() }));
    const listed = (run: BackupRunRecord & { id: number }): BackupListed => ({ ...run, present: run.ok && existsSync(run.file) });
    const now = this.now().getTime();
    const every = this.settings.everyHours * 3_600_000;
    const since = lastGood ? new Date(lastGood.at).getTime() : this.startedAt.getTime();
    const next = this.nextDueAt();
    return {
      dir: this.settings.dir,
      everyHours: this.settings.everyHours,
      keep: this.settings.keep,
      backups: runs.map(listed),
      lastGood: lastGood ? listed(lastGood) : null,
      lastFailed: runs.length > 0 && !runs[0].ok,
      overdue: every > 0 && now - since > every + OVERDUE_GRACE_MS,
      nextDueAt: next && next.toISOString(),
      running: this.running,
    };
  }
}

/**
 * The backup taken before a change to the whole file: before a migration (a database whose
 * schema is older than this LabelDesk's), an import, or a restore. Null when there is nothing to
 * back up (no file, or a file with no schema yet) or, for `migration`, nothing to migrate.
 * Throws when the backup fails, so that the change does not go ahead without one.
 */
export async function backupBefore(
  change: 'migration' | 'import',
  dbFile: string,
  settings: Pick<BackupSettings, 'dir' | 'keep'>,
  now?: () => Date,
): Promise<BackupRun | null> {
  if (!existsSync(dbFile) || statSync(dbFile).size === 0) return null;
  const version = schemaVersionOf(dbFile);
  if (version === 0 || version > SCHEMA_VERSION || (change === 'migration' && version === SCHEMA_VERSION)) return null;
  const run = await takeBackup({ dbFile, dir: settings.dir, reason: change, now, keep: settings.keep });
  const damage = damageFoundBy(run, dbFile, settings.dir);
  if (damage) throw damage;
  if (!run.ok) {
    const what = change === 'migration' ? `upgrading the database from schema ${version} to ${SCHEMA_VERSION}` : 'the import';
    throw new Error(`the backup before ${what} failed, so nothing was changed: ${run.failure}`);
  }
  return run;
}

/**
 * The damage of the database a failed backup found: the copy is the file page for page, so a copy
 * SQLite finds malformed is a damaged file (docs/operations.md#a-damaged-database). Null for any
 * other failure.
 */
export function damageFoundBy(run: BackupRun, dbFile: string, backupDir: string): DatabaseDamagedError | null {
  if (run.ok) return null;
  const integrity = run.manifest.verification.integrity;
  if ((integrity.length > 0 && integrity[0] !== 'ok') || /malformed|not a database/.test(run.failure ?? '')) {
    return new DatabaseDamagedError(path.resolve(dbFile), `a copy of it fails SQLite's integrity check: ${integrity[0] ?? run.failure}`, backupDir);
  }
  return null;
}

/** A backup that failed before any copy: the record says why; nothing is written. */
function unwritable(options: TakeBackupOptions, at: Date, failure: string): BackupRun {
  const name = backupFileName(at);
  return {
    at: at.toISOString(),
    file: name,
    dir: options.dir,
    path: null,
    bytes: null,
    reason: options.reason,
    ok: false,
    failure,
    counts: {},
    sha256: null,
    removed: [],
    manifest: {
      format: MANIFEST_FORMAT,
      formatVersion: MANIFEST_FORMAT_VERSION,
      labeldeskVersion: VERSION,
      schemaVersion: 0,
      at: at.toISOString(),
      reason: options.reason,
      source: path.resolve(options.dbFile),
      file: name,
      bytes: null,
      sha256: null,
      checkpoints: null,
      counts: {},
      verification: { ok: false, integrity: [], chains: null, countsMatch: false },
      failure,
    },
  };
}
