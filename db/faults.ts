/**
 * The faults of the disk and the file, in words (docs/operations.md#when-things-go-wrong): a full
 * disk, a damaged database file, a folder that cannot be written. SQLite and Node say these with
 * codes (SQLITE_FULL, SQLITE_NOTADB, ENOSPC, EACCES…); here each becomes one error whose message
 * names the file or folder and says what to do. The HTTP layer gives each its status
 * (http/errors.ts), the command line prints the message as its one line.
 */
import { closeSync, existsSync, mkdirSync, openSync, readFileSync, rmSync, statfsSync, statSync } from 'node:fs';
import path from 'node:path';

/** The disk under the database (or a backup, an export) has no room: nothing was written. */
export class DiskFullError extends Error {
  constructor(
    /** The folder whose disk is full. */
    readonly folder: string,
    what: string,
    cause?: unknown,
  ) {
    super(`the disk holding ${folder} is full: ${what}. Free some space there; LabelDesk goes on by itself, no restart needed`, { cause });
    this.name = 'DiskFullError';
  }
}

/** The database file is damaged: LabelDesk leaves it exactly as it is and points to a restore. */
export class DatabaseDamagedError extends Error {
  constructor(
    readonly file: string,
    /** What is wrong with it, in words. */
    readonly damage: string,
    /** Where its backups are, when known. */
    readonly backupDir?: string,
    cause?: unknown,
  ) {
    super(
      `the database ${file} is damaged (${damage}); LabelDesk leaves the file as it is. ` +
        `Restore the newest good backup: labeldesk restore --from BACKUP --db ${file}` +
        (backupDir ? ` (the backups are in ${backupDir})` : ''),
      { cause },
    );
    this.name = 'DatabaseDamagedError';
  }

  /** The same damage, with the folder of the file's backups named. */
  withBackupDir(backupDir: string): DatabaseDamagedError {
    return new DatabaseDamagedError(this.file, this.damage, backupDir, this.cause);
  }
}

/** A folder LabelDesk must write to refuses it (read-only, not a folder, no permission). */
export class FolderNotWritableError extends Error {
  constructor(
    readonly folder: string,
    what: string,
    reason: string,
  ) {
    super(`the folder ${folder} cannot be written (${reason}): ${what}. Give a folder this user may write to, or make this one writable`);
    this.name = 'FolderNotWritableError';
  }
}

/** Whether `err` is one of the faults above, whose message is all a person needs. */
export function isFault(err: unknown): err is DiskFullError | DatabaseDamagedError | FolderNotWritableError {
  return err instanceof DiskFullError || err instanceof DatabaseDamagedError || err instanceof FolderNotWritableError;
}

const codeOf = (err: unknown): string => String((err as { code?: unknown } | null)?.code ?? '');

/** SQLite's words for a file that is not, or no longer, a sound database. */
export function isDamage(err: unknown): boolean {
  const code = codeOf(err);
  return code === 'SQLITE_NOTADB' || code.startsWith('SQLITE_CORRUPT');
}

/** SQLite's or Node's words for a disk (or quota, or file size limit) with no room. */
export function isDiskFull(err: unknown): boolean {
  const code = codeOf(err);
  return code === 'SQLITE_FULL' || code === 'ENOSPC' || code === 'EDQUOT' || code === 'EFBIG';
}

/**
 * Why `folder` has no room for a file of `bytes`, in words; null when it has. For an error that
 * does not say it (SQLite's backup API answers a write the disk refuses with a bare
 * SQLITE_IOERR, whatever the cause), asked of the folder itself: the free space of its file
 * system, and the largest file this process may write (its file size limit, `ulimit -f`; a
 * FAT32 stick's 4 GiB is met the same way, as EFBIG).
 */
export function whyNoRoomFor(folder: string, bytes: number): string | null {
  try {
    const fs = statfsSync(folder);
    const free = fs.bavail * fs.bsize;
    if (free < bytes) return `${free} bytes free there, about ${bytes} needed`;
  } catch {
    // No file system to ask (the folder is gone): the size limit may still tell.
  }
  const limit = fileSizeLimit();
  if (limit !== null && limit < bytes) return `a file there may hold at most ${limit} bytes, this process's file size limit; about ${bytes} needed`;
  if (isFatFileSystem(folder) && bytes >= FAT_LARGEST_FILE) return `its file system (FAT) holds files of less than 4 GiB, about ${bytes} needed`;
  return null;
}

const FAT_LARGEST_FILE = 2 ** 32;
/** statfs's type of a FAT file system (MSDOS_SUPER_MAGIC). */
const MSDOS_SUPER_MAGIC = 0x4d44;

function isFatFileSystem(folder: string): boolean {
  try {
    return statfsSync(folder).type === MSDOS_SUPER_MAGIC;
  } catch {
    return false;
  }
}

/** This process's file size limit in bytes (Linux's /proc/self/limits), or null when none or unknown. */
function fileSizeLimit(): number | null {
  const limits = '/proc/self/limits';
  if (!existsSync(limits)) return null;
  const line = readFileSync(limits, 'utf8')
    .split('\n')
    .find((l) => l.startsWith('Max file size'));
  const soft = line?.split(/\s{2,}/)[1];
  return soft === undefined || !/^\d+$/.test(soft) ? null : Number(soft);
}

/** Node's words for a folder that refuses a write. */
const REFUSED_WRITE: Readonly<Record<string, string>> = {
  EACCES: 'permission denied',
  EPERM: 'not permitted',
  EROFS: 'a read-only file system',
  ENOTDIR: 'a part of its path is a file, not a folder',
};

/**
 * Why `folder` refuses to take a new file, or null when it takes one. Asked of the folder itself,
 * by making and removing an empty file there, since permission bits do not tell (root ignores
 * them; a read-only file system or a share has its own rules).
 */
export function whyFolderRefusesWrites(folder: string): string | null {
  const probe = path.join(folder, `.labeldesk-write-check-${process.pid}`);
  try {
    closeSync(openSync(probe, 'wx'));
    rmSync(probe, { force: true });
    return null;
  } catch (err) {
    const code = codeOf(err);
    if (code === 'EEXIST') return null;
    // A folder that is there and still answers ENOENT is a system folder (/proc) that takes no files.
    if (code === 'ENOENT') return existsSync(folder) ? 'it takes no new files' : 'it does not exist';
    return REFUSED_WRITE[code] ?? code ?? 'refused';
  }
}

/**
 * Makes `folder` and the folders above it that are missing, one level at a time. Node's
 * `mkdirSync(…, { recursive: true })` never returns in a folder that answers every mkdir with
 * ENOENT, as /proc does (it takes the answer for a missing parent and goes up and down again);
 * here each level is made once, and its refusal thrown.
 */
export function makeFolder(folder: string): void {
  const missing: string[] = [];
  for (let at = path.resolve(folder); !existsSync(at); at = path.dirname(at)) {
    missing.unshift(at);
    if (path.dirname(at) === at) break;
  }
  for (const dir of missing) {
    try {
      mkdirSync(dir);
    } catch (err) {
      if (codeOf(err) !== 'EEXIST') throw err;
    }
  }
  // A file where the folder should be is refused as mkdir refuses a path through a file.
  if (!statSync(folder).isDirectory()) throw Object.assign(new Error(`ENOTDIR: not a directory, mkdir '${folder}'`), { code: 'ENOTDIR' });
}

/**
 * The fault `err` is, as one of the errors above, for work on the database `file`; null when it
 * is none of them. `what` says what could not be done (for a full disk).
 */
export function databaseFault(err: unknown, file: string, what = 'nothing was changed (the write rolled back)'): Error | null {
  if (isFault(err)) return err;
  const folder = path.dirname(path.resolve(file));
  if (isDiskFull(err)) return new DiskFullError(folder, what, err);
  if (isDamage(err)) return new DatabaseDamagedError(path.resolve(file), sqliteWords(err), undefined, err);
  const code = codeOf(err);
  if (code === 'SQLITE_CANTOPEN' || code.startsWith('SQLITE_READONLY')) {
    const why = whyFolderRefusesWrites(folder);
    if (why) return new FolderNotWritableError(folder, `the database ${path.resolve(file)} cannot be opened for writing there`, why);
  }
  return null;
}

/**
 * The fault of a file written outside SQLite (a backup's manifest, an export) in `folder`, or
 * null when it is none of these.
 */
export function fileFault(err: unknown, folder: string, what: string): Error | null {
  if (isDiskFull(err)) return new DiskFullError(folder, what, err);
  const reason = REFUSED_WRITE[codeOf(err)];
  return reason ? new FolderNotWritableError(folder, what, reason) : null;
}

function sqliteWords(err: unknown): string {
  return codeOf(err) === 'SQLITE_NOTADB' ? 'it is not an SQLite database' : `SQLite reads it as malformed: ${(err as Error).message}`;
}
