/**
 * Where the audit trail's signed checkpoints are kept (docs/review-and-audit.md#checkpoints): in
 * the database (audit_key, audit_checkpoints) and, line for line, in the file beside it,
 * `FILE.checkpoints.jsonl`, so that rows deleted from the one are seen against the other. This
 * file stores and reads them; what a checkpoint says and how it is signed and checked is
 * service/audit-checkpoints.ts.
 */
import { closeSync, fsyncSync, openSync, readFileSync, writeSync } from 'node:fs';
import type { Statement } from 'better-sqlite3';
import type { Db } from './database';

/** One checkpoint as it is stored: the body its signature covers, byte for byte. */
export interface StoredCheckpoint {
  seq: number;
  at: string;
  body: string;
  /** Ed25519 over the body's UTF-8 bytes, base64. */
  signature: string;
  /** SHA-256 over the body's UTF-8 bytes, hex. */
  hash: string;
}

/** The file beside the database that holds a copy of every checkpoint, one JSON line each. */
export function checkpointFileOf(databaseFile: string): string | null {
  return databaseFile === '' || databaseFile === ':memory:' ? null : `${databaseFile}.checkpoints.jsonl`;
}

/** A line of the file beside, as read: the checkpoint, or why the line is none. */
export type CheckpointLine = { line: number; checkpoint: StoredCheckpoint } | { line: number; problem: string };

export type CheckpointFileRead = { missing: true } | { missing: false; lines: CheckpointLine[] };

export class AuditCheckpointStore {
  private readonly publicKeyRow: Statement;
  private readonly insertKey: Statement;
  private readonly newestRow: Statement;
  private readonly allRows: Statement;
  private readonly insertRow: Statement;
  private readonly countRows: Statement;

  constructor(
    db: Db,
    /** The file beside the database, or null for a database in memory. */
    readonly file: string | null,
  ) {
    this.publicKeyRow = db.prepare('SELECT public_key FROM audit_key WHERE id = 1').pluck();
    this.insertKey = db.prepare('INSERT INTO audit_key (id, public_key, created_at) VALUES (1, ?, ?)');
    this.newestRow = db.prepare('SELECT seq, at, body, signature, hash FROM audit_checkpoints ORDER BY seq DESC LIMIT 1');
    this.allRows = db.prepare('SELECT seq, at, body, signature, hash FROM audit_checkpoints ORDER BY seq');
    this.insertRow = db.prepare('INSERT INTO audit_checkpoints (seq, at, body, signature, hash) VALUES (?, ?, ?, ?, ?)');
    this.countRows = db.prepare('SELECT count(*) FROM audit_checkpoints').pluck();
  }

  /** The public key (PEM) that signs this database's checkpoints, or null before the first. */
  publicKey(): string | null {
    return (this.publicKeyRow.get() as string | undefined) ?? null;
  }

  setPublicKey(pem: string, at: string): void {
    this.insertKey.run(pem, at);
  }

  newest(): StoredCheckpoint | null {
    return (this.newestRow.get() as StoredCheckpoint | undefined) ?? null;
  }

  all(): StoredCheckpoint[] {
    return this.allRows.all() as StoredCheckpoint[];
  }

  count(): number {
    return this.countRows.get() as number;
  }

  /**
   * Stores the checkpoint; in the caller's write transaction. Its line is appended to the file
   * beside (and flushed to the disk) before the row is, so that a file that cannot be written
   * rolls the row back: the database never holds a checkpoint its file lacks.
   */
  append(checkpoint: StoredCheckpoint): void {
    if (this.file !== null) {
      const fd = openSync(this.file, 'a', 0o644);
      try {
        writeSync(fd, `${checkpointLine(checkpoint)}\n`);
        fsyncSync(fd);
      } finally {
        closeSync(fd);
      }
    }
    this.insertRow.run(checkpoint.seq, checkpoint.at, checkpoint.body, checkpoint.signature, checkpoint.hash);
  }

  /** The file beside, line by line; a line that is no checkpoint says why. */
  readFile(): CheckpointFileRead {
    if (this.file === null) return { missing: true };
    let text: string;
    try {
      text = readFileSync(this.file, 'utf8');
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return { missing: true };
      throw err;
    }
    const lines: CheckpointLine[] = [];
    text.split('\n').forEach((raw, i) => {
      if (raw.trim() === '') return;
      lines.push(parseCheckpointLine(raw, i + 1));
    });
    return { missing: false, lines };
  }
}

/** A checkpoint as one line of JSON: the form of the file beside and of the export. */
export function checkpointLine(c: StoredCheckpoint): string {
  return JSON.stringify({ seq: c.seq, at: c.at, hash: c.hash, body: c.body, signature: c.signature });
}

export function parseCheckpointLine(raw: string, line: number): CheckpointLine {
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch {
    return { line, problem: 'it is not JSON' };
  }
  const v = value as Partial<Record<keyof StoredCheckpoint, unknown>> | null;
  if (typeof v !== 'object' || v === null) return { line, problem: 'it is not a JSON object' };
  if (!Number.isSafeInteger(v.seq) || (v.seq as number) < 1) return { line, problem: 'it has no checkpoint number (seq)' };
  for (const name of ['at', 'body', 'signature', 'hash'] as const) {
    if (typeof v[name] !== 'string') return { line, problem: `it has no ${name}` };
  }
  return { line, checkpoint: { seq: v.seq as number, at: v.at as string, body: v.body as string, signature: v.signature as string, hash: v.hash as string } };
}
