/**
 * The checks a database file passes before LabelDesk writes to it (docs/operations.md#a-damaged-database):
 * its header is SQLite's, it is as long as its header says, and its schema reads. They cost a few
 * milliseconds at any size. `PRAGMA quick_check` would also find a page damaged in the middle,
 * but it reads every page: 14 s cold and 0.8 s warm at 100 000 reports (770 MB), on every
 * start and every command. A damaged page there is met when it is read instead (the same
 * message), and the integrity check of every backup reads them all, daily.
 *
 * Nothing here writes: a damaged file, its -wal and its -shm stay exactly as they are.
 */
import { closeSync, existsSync, openSync, readSync, statSync } from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { DatabaseDamagedError, databaseFault, isDamage } from './faults';

const HEADER = Buffer.from('SQLite format 3\0', 'latin1');
const HEADER_BYTES = 100;

/** A write-ahead log shorter than its header holds no page. */
const WAL_HEADER_BYTES = 32;

const holdsAnything = (file: string, atLeast: number) => existsSync(file) && statSync(file).size >= atLeast;

/** Throws DatabaseDamagedError when the file is there but is no SQLite database, or is cut short. */
export function checkBeforeOpen(file: string): void {
  if (file === ':memory:' || file === '' || !existsSync(file)) return;
  const size = statSync(file).size;
  // An empty file is a database yet to be made: SQLite writes its header at the first write.
  if (size === 0) return;
  const head = Buffer.alloc(HEADER_BYTES);
  const fd = openSync(file, 'r');
  let read: number;
  try {
    read = readSync(fd, head, 0, HEADER_BYTES, 0);
  } finally {
    closeSync(fd);
  }
  const damaged = (damage: string) => new DatabaseDamagedError(path.resolve(file), damage);
  if (read < HEADER_BYTES || !head.subarray(0, HEADER.length).equals(HEADER)) {
    throw damaged(`its first bytes are not those of an SQLite database`);
  }
  const pageSizeField = head.readUInt16BE(16);
  const pageSize = pageSizeField === 1 ? 65_536 : pageSizeField;
  if (pageSize < 512 || pageSize > 65_536 || (pageSize & (pageSize - 1)) !== 0) throw damaged(`its header gives a page size of ${pageSizeField}`);
  // The page count in the header is valid when the change counter beside it matches (sqlite.org/fileformat.html).
  const pages = head.readUInt32BE(28);
  const valid = head.readUInt32BE(24) === head.readUInt32BE(92);
  // With a write-ahead log or a journal beside it, the file may rightly be shorter for a while (a
  // checkpoint cut off midway): SQLite completes it from the log, so only a file alone is judged.
  const alone = !holdsAnything(`${file}-wal`, WAL_HEADER_BYTES) && !holdsAnything(`${file}-journal`, 1);
  if (valid && alone && pages > 0 && size < pages * pageSize) {
    throw damaged(`it is cut short: ${size} bytes where its header says ${pages} pages of ${pageSize} bytes, ${pages * pageSize} bytes`);
  }
  checkSchemaReads(file);
}

/**
 * Reads the schema, which SQLite parses whole at the first statement, on a read-only connection:
 * one that closes without a checkpoint, so a damaged file is left as it was found. Other
 * failures (a folder where the read-only connection cannot make its -shm) are left to the
 * connection that writes, which says them in its own words.
 */
function checkSchemaReads(file: string): void {
  let db: Database.Database | undefined;
  try {
    db = new Database(file, { readonly: true, fileMustExist: true });
    db.prepare('SELECT count(*) FROM sqlite_schema').pluck().get();
  } catch (err) {
    if (isDamage(err)) throw databaseFault(err, file);
  } finally {
    db?.close();
  }
}

/**
 * Closes `db` without the checkpoint the last connection to close makes (it copies the log into
 * the file and deletes the -wal and -shm): a read-only connection holds the file meanwhile, and
 * a read-only connection closes without either. For a file found damaged, left as it was found.
 */
export function closeLeavingFiles(db: Database.Database, file: string): void {
  let holder: Database.Database | undefined;
  try {
    holder = new Database(file, { readonly: true, fileMustExist: true });
    // A connection holds its lock on the file once it has read from it: the first page will do.
    holder.pragma('user_version');
  } catch {
    // No holder to be had: nothing better than the plain close.
  }
  try {
    db.close();
  } finally {
    holder?.close();
  }
}
