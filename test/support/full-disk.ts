/**
 * A full disk, made without root (docs/testing.md#a-full-disk): SQLite's `PRAGMA max_page_count`
 * caps a connection's database at the pages it has, so the next write that needs a new page
 * fails with SQLITE_FULL, the very error a disk without room gives; raising it again is the
 * space freed. The pragma is the connection's own, so this watches the connections this process
 * opens (better-sqlite3's own class, whose every connection sets its pragmas first) and sets
 * it on each: the service's, and a command's.
 */
import Database from 'better-sqlite3';

/** SQLite's default ceiling: as good as none. */
const NO_LIMIT = 4_294_967_294;

export interface FullDisk {
  /** From now on, every writing connection (open now or opened later) has no room to grow. */
  fill(): void;
  /** Room again, for every connection: no restart. */
  free(): void;
  /** Stops watching the connections this process opens. */
  stop(): void;
}

export function watchDisk(): FullDisk {
  const connections = new Set<Database.Database>();
  let full = false;
  const original = Database.prototype.pragma;
  const cap = (db: Database.Database) => {
    if (!db.open || db.readonly || db.memory) return;
    const pages = original.call(db, 'page_count', { simple: true }) as number;
    original.call(db, `max_page_count = ${full ? Math.max(pages, 1) : NO_LIMIT}`);
  };
  Database.prototype.pragma = function (this: Database.Database, ...args: Parameters<Database.Database['pragma']>) {
    const result = original.apply(this, args);
    connections.add(this);
    // Once the journal mode is set (a connection's first write), so the cap counts the pages of the file as it stands.
    if (full && /^journal_mode\s*=/.test(args[0])) cap(this);
    return result;
  } as Database.Database['pragma'];
  const each = () => {
    for (const db of connections) {
      if (db.open) cap(db);
      else connections.delete(db);
    }
  };
  return {
    fill: () => {
      full = true;
      each();
    },
    free: () => {
      full = false;
      each();
    },
    stop: () => {
      Database.prototype.pragma = original;
    },
  };
}
