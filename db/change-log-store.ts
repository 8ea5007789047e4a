/** SQL for the change log: append in the writer's transaction, read by report or after a checkpoint. */
import type { Statement } from 'better-sqlite3';
import type { Actor, ChangeEntry, ChangeKind, ChangeSignature, FieldChange } from '../schema/change-log';
import type { AuditChain } from './audit-chain';
import type { Db } from './database';

export interface NewChange {
  reportId: string;
  kind: ChangeKind;
  changes: readonly FieldChange[];
  actor: Actor;
  companies: readonly string[];
  at: string;
  /** Why, for a change to the verdict; null when none was asked. */
  reason?: string | null;
  /** The signature of a signed verdict change. */
  signature?: ChangeSignature | null;
}

interface ChangeRow {
  seq: number;
  label_report_id: string;
  kind: ChangeKind;
  changes: string;
  actor: Actor['kind'];
  api_key_id: string | null;
  user_id: string | null;
  user_name: string | null;
  companies: string;
  at: string;
  reason: string | null;
  signature: string | null;
}

export class ChangeLogStore {
  private readonly insert: Statement;
  private readonly selectForReport: Statement;
  private readonly selectAfter: Statement;
  private readonly selectLastSeq: Statement;

  constructor(
    db: Db,
    private readonly chain: AuditChain,
  ) {
    this.insert = db.prepare(
      `INSERT INTO change_log (label_report_id, kind, changes, actor, api_key_id, companies, at, reason, user_id, user_name, signature)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    this.selectForReport = db.prepare('SELECT * FROM change_log WHERE label_report_id = ? ORDER BY seq');
    this.selectAfter = db.prepare('SELECT * FROM change_log WHERE seq > ? ORDER BY seq LIMIT ?');
    this.selectLastSeq = db.prepare('SELECT COALESCE(MAX(seq), 0) FROM change_log').pluck();
  }

  /** Returns the entry's sequence number. */
  append(change: NewChange): number {
    const { actor, apiKeyId } = actorColumns(change.actor);
    const person = change.actor.kind === 'apiKey' ? change.actor.person : undefined;
    const result = this.insert.run(
      change.reportId,
      change.kind,
      JSON.stringify(change.changes),
      actor,
      apiKeyId,
      JSON.stringify(change.companies),
      change.at,
      change.reason ?? null,
      person?.id ?? null,
      person?.name ?? null,
      change.signature ? JSON.stringify(change.signature) : null,
    );
    const seq = Number(result.lastInsertRowid);
    this.chain.seal('change_log', seq);
    return seq;
  }

  /** The report's history, oldest first. */
  forReport(reportId: string): ChangeEntry[] {
    return (this.selectForReport.all(reportId) as ChangeRow[]).map(toEntry);
  }

  /** Entries after a checkpoint, in order: what a reader of the feed has not seen yet. */
  after(seq: number, limit: number): ChangeEntry[] {
    return (this.selectAfter.all(seq, limit) as ChangeRow[]).map(toEntry);
  }

  lastSeq(): number {
    return this.selectLastSeq.get() as number;
  }
}

/** Who made a change, as the change_log columns hold it. */
export function actorColumns(actor: Actor): { actor: Actor['kind']; apiKeyId: string | null } {
  return { actor: actor.kind, apiKeyId: actor.kind === 'apiKey' ? actor.keyId : null };
}

function toEntry(row: ChangeRow): ChangeEntry {
  return {
    seq: row.seq,
    labelReportId: row.label_report_id,
    kind: row.kind,
    changes: JSON.parse(row.changes) as FieldChange[],
    actor:
      row.actor !== 'apiKey'
        ? { kind: row.actor }
        : row.user_id === null
          ? { kind: 'apiKey', keyId: row.api_key_id ?? '' }
          : { kind: 'apiKey', keyId: row.api_key_id ?? '', person: { id: row.user_id, name: row.user_name ?? '' } },
    companies: JSON.parse(row.companies) as string[],
    at: row.at,
    ...(row.reason === null ? {} : { reason: row.reason }),
    ...(row.signature === null || row.signature === undefined ? {} : { signature: JSON.parse(row.signature) as ChangeSignature }),
  };
}
