/**
 * A new database file at the current schema, copied from one this test process made through
 * every migration. Migrating an empty file costs a tenth of a second or more (each ALTER TABLE
 * makes SQLite read the whole schema again, triggers and all), and the suite makes hundreds of
 * them; what the migrations make is tested once, in test/db/migrations.test.ts and the upgrade
 * tests, which open files of their own.
 */
import { copyFileSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openDatabase } from '../../db/database';

let blank: string | undefined;

function blankFile(): string {
  if (blank === undefined) {
    const dir = mkdtempSync(join(tmpdir(), 'labeldesk-blank-'));
    const file = join(dir, 'blank.sqlite');
    // Closing the only connection checkpoints the WAL into the file and removes it: one file to copy.
    openDatabase(file).close();
    process.once('exit', () => rmSync(dir, { recursive: true, force: true }));
    blank = file;
  }
  return blank;
}

/** `file`, made a blank database at the current schema unless it exists already. */
export function blankDatabase(file: string): string {
  if (!existsSync(file)) copyFileSync(blankFile(), file);
  return file;
}
