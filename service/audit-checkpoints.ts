/**
 * Signed checkpoints of the audit trail (docs/review-and-audit.md#checkpoints). The hash chains
 * (db/audit-chain.ts) show an entry edited, but not a chain's newest entries deleted, nor a chain
 * recomputed whole by someone holding the file. A checkpoint is the word of a key the file does
 * not hold: where each chain stood (its length, its newest entry, that entry's hash) at a time,
 * signed with Ed25519, naming the checkpoint before it by its hash. `verify` holds the chains to
 * every checkpoint, and the checkpoints to each other, to their key and to the copy in the file
 * beside the database.
 *
 * A checkpoint names the chains that moved since the checkpoint before it (the first names
 * every chain): where the chains stood at checkpoint n is what checkpoints 1 to n say, the newer
 * word on a chain over the older.
 *
 * The backup calls `AuditTrail.checkpoint()` (service/audit-trail.ts), which signs one now.
 */
import { createHash, createPublicKey, sign, verify as verifySignature, type KeyObject } from 'node:crypto';
import { AUDIT_TABLES, type AuditTable } from '../db/audit-chain';
import type { StoredCheckpoint } from '../db/audit-checkpoints';
import type { DataStore } from '../db/data-store';

export const CHECKPOINT_FORMAT = 'labeldesk-audit-checkpoint';
export const CHECKPOINT_VERSION = 1;

/** How often the running service signs a checkpoint while there were changes. */
export const CHECKPOINT_EVERY_MS = 60 * 60_000;

/** A chain as a checkpoint names it: [report id, entry count, number of its newest entry, that entry's hash]. */
export type SignedChain = [reportId: string, length: number, lastId: number, head: string | null];

/** The text a checkpoint's signature covers, parsed: the form the docs describe, key by key. */
export interface CheckpointBody {
  format: typeof CHECKPOINT_FORMAT;
  version: typeof CHECKPOINT_VERSION;
  seq: number;
  at: string;
  /** PEM (SPKI) of the Ed25519 key that signed it. */
  publicKey: string;
  /** The hash of the checkpoint before it; null for the first. */
  previous: string | null;
  /** Each table's entry count and newest entry number. */
  tables: Record<AuditTable, { entries: number; lastId: number }>;
  /**
   * The one chain of who viewed, printed or exported which report (db/access-store.ts): its entry
   * count, newest entry and that entry's hash. Absent from checkpoints signed before it was kept.
   */
  access?: { entries: number; lastId: number; head: string | null };
  /** The chains of each table that moved since the checkpoint before it, by report. */
  chains: Record<AuditTable, SignedChain[]>;
}

/** The key to sign with is missing or cannot be used; the words say why. */
export class AuditKeyError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'AuditKeyError';
  }
}

/** Where the private key comes from: a key file beside the database, or the desktop's key store (host/audit-key.ts). */
export interface AuditKeySource {
  /**
   * The private key to sign with. `expected` is the public key (PEM) this database's checkpoints
   * are signed with, or null before the first. Throws AuditKeyError, in words, when there is none
   * to use (a key file others may read, a key not handed over yet).
   */
  signingKey(expected: string | null): KeyObject;
}

/** The SPKI PEM of a key's public half. */
export function publicKeyPem(key: KeyObject | string): string {
  return createPublicKey(key).export({ type: 'spki', format: 'pem' }) as string;
}

/** SHA-256 of the public key's DER (SPKI), hex: `openssl pkey -pubin -in key.pem -outform DER | sha256sum`. */
export function keyFingerprint(pem: string): string {
  return createHash('sha256').update(createPublicKey(pem).export({ type: 'spki', format: 'der' })).digest('hex');
}

export function bodyHash(body: string): string {
  return createHash('sha256').update(body, 'utf8').digest('hex');
}

export type CheckpointFindingKind =
  | 'truncated'
  | 'entryRemoved'
  | 'recomputed'
  | 'badSignature'
  | 'otherKey'
  | 'brokenLink'
  | 'deletedFromDatabase'
  | 'missingFromFile'
  | 'fileMissing'
  | 'differs'
  | 'missingCheckpoints'
  | 'badLine'
  | 'noKey'
  | 'keyReplaced';

export interface CheckpointFinding {
  kind: CheckpointFindingKind;
  /** The whole finding in words, one line. */
  message: string;
}

export interface CheckpointReport {
  /** Checkpoints held in the database and in the file beside it, together (by number). */
  checkpoints: number;
  /** The newest checkpoint that holds (signature, key), or null. */
  newest: { seq: number; at: string } | null;
  /** The key the checkpoints were checked against, or null where there is none. */
  fingerprint: string | null;
  findings: CheckpointFinding[];
}

export interface CheckpointHistory {
  publicKey: string | null;
  fingerprint: string | null;
  checkpoints: StoredCheckpoint[];
}

export class AuditCheckpoints {
  private keys: AuditKeySource | null = null;

  constructor(
    private readonly data: DataStore,
    private readonly now: () => Date,
  ) {}

  /** Where the private key comes from (the composition decides: host/open-service.ts). */
  useKeys(source: AuditKeySource): void {
    this.keys = source;
  }

  /** Whether a chain took new entries since the newest checkpoint, or there is none yet. */
  moved(): boolean {
    return this.data.read(() => {
      const newest = this.data.checkpoints.newest();
      if (newest === null) return true;
      const { tables: signed, access } = signedHeads(newest.body);
      // New entries only: entries deleted since are what verify finds against this checkpoint, not a change to sign.
      return AUDIT_TABLES.some((t) => signed[t]?.lastId !== this.data.audit.lastId(t)) || (access?.lastId ?? 0) !== this.data.access.head().lastId;
    });
  }

  /** Signs a checkpoint now, when a chain moved since the newest one; else null. */
  checkpointIfMoved(): StoredCheckpoint | null {
    return this.moved() ? this.checkpoint() : null;
  }

  /**
   * Signs a checkpoint of every chain now and keeps it in the database and in the file beside;
   * returns it. Throws AuditKeyError when there is no key to sign with, and whatever the file
   * beside throws (then nothing is kept).
   */
  checkpoint(): StoredCheckpoint {
    if (this.keys === null) throw new AuditKeyError('this service was given no audit key');
    const expected = this.data.read(() => this.data.checkpoints.publicKey());
    const key = this.keys.signingKey(expected);
    const pem = publicKeyPem(key);
    if (expected !== null && !samePem(pem, expected)) {
      throw new AuditKeyError(
        `the audit key at hand (${keyFingerprint(pem)}) is not the key this database's checkpoints are signed with (${keyFingerprint(expected)})`,
      );
    }
    return this.data.write(() => {
      const at = this.now().toISOString();
      if (this.data.checkpoints.publicKey() === null) this.data.checkpoints.setPublicKey(pem, at);
      const newest = this.data.checkpoints.newest();
      const before = newest === null ? null : { tables: signedHeads(newest.body).tables };
      const seq = (newest?.seq ?? 0) + 1;
      const tables = {} as CheckpointBody['tables'];
      const chains = {} as CheckpointBody['chains'];
      for (const table of AUDIT_TABLES) {
        tables[table] = { entries: this.data.audit.count(table), lastId: this.data.audit.lastId(table) };
        chains[table] = this.data.audit.heads(table, before?.tables[table]?.lastId ?? 0).map((h) => [h.reportId, h.length, h.lastId, h.head]);
      }
      // Before `chains`, so that signedHeads reads it without the chains.
      const access = this.data.access.head();
      const content: CheckpointBody = { format: CHECKPOINT_FORMAT, version: CHECKPOINT_VERSION, seq, at, publicKey: pem, previous: newest?.hash ?? null, tables, access, chains };
      const body = JSON.stringify(content);
      const stored: StoredCheckpoint = { seq, at, body, signature: sign(null, Buffer.from(body, 'utf8'), key).toString('base64'), hash: bodyHash(body) };
      this.data.checkpoints.append(stored);
      return stored;
    });
  }

  /** The public key and every checkpoint in the database, oldest first: what an auditor takes away. */
  history(): CheckpointHistory {
    return this.data.read(() => {
      const publicKey = this.data.checkpoints.publicKey();
      return { publicKey, fingerprint: publicKey === null ? null : keyFingerprint(publicKey), checkpoints: this.data.checkpoints.all() };
    });
  }

  /**
   * Holds the checkpoints (in the database and the file beside, whichever has more) to their key,
   * to each other and to each other's copy, and the chains to every checkpoint that holds.
   * `trustedKey`: a public key (PEM) the auditor keeps; by default the database's own.
   */
  verify(trustedKey?: string): CheckpointReport {
    return this.data.read(() => new CheckpointCheck(this.data, this.data.checkpoints.file, trustedKey).run());
  }
}

/** A checkpoint's state of one chain, with the checkpoint that signed it. */
interface SignedState {
  length: number;
  lastId: number;
  head: string | null;
  seq: number;
  at: string;
}

const TABLE_WORDS: Record<AuditTable, { log: string; ends: string; has: string; hashes: string; its: string; entry: string }> = {
  change_log: { log: 'the change log', ends: 'ends', has: 'has', hashes: 'hashes', its: 'its', entry: 'seq' },
  report_reviews: { log: 'the review entries', ends: 'end', has: 'have', hashes: 'hash', its: 'their', entry: 'id' },
};

class CheckpointCheck {
  private readonly findings: CheckpointFinding[] = [];

  constructor(
    private readonly data: DataStore,
    private readonly file: string | null,
    private readonly given: string | undefined,
  ) {}

  private find(kind: CheckpointFindingKind, message: string): void {
    this.findings.push({ kind, message });
  }

  run(): CheckpointReport {
    const databaseKey = this.data.checkpoints.publicKey();
    const rows = this.data.checkpoints.all();
    const read = this.data.checkpoints.readFile();
    const fileName = this.file ?? 'the file beside the database';

    const bySeq = new Map<number, { db?: StoredCheckpoint; file?: StoredCheckpoint }>();
    for (const row of rows) bySeq.set(row.seq, { db: row });
    if (read.missing) {
      if (rows.length > 0) this.find('fileMissing', `the file beside the database, ${fileName}, is missing: it held a copy of ${plural(rows.length, 'checkpoint', 'checkpoints')}`);
    } else {
      for (const line of read.lines) {
        if ('problem' in line) {
          this.find('badLine', `line ${line.line} of ${fileName} is no checkpoint: ${line.problem}`);
          continue;
        }
        const slot = bySeq.get(line.checkpoint.seq) ?? {};
        if (slot.file !== undefined) this.find('badLine', `line ${line.line} of ${fileName} holds checkpoint ${line.checkpoint.seq} a second time`);
        else bySeq.set(line.checkpoint.seq, { ...slot, file: line.checkpoint });
      }
    }
    const seqs = [...bySeq.keys()].sort((a, b) => a - b);

    // The key the checkpoints must be signed by.
    let trusted: string | null = this.given ?? databaseKey;
    if (this.given !== undefined && databaseKey !== null && !samePem(this.given, databaseKey)) {
      this.find('keyReplaced', `the database's audit key (${keyFingerprint(databaseKey)}) is not the key given (${keyFingerprint(this.given)})`);
    }
    if (databaseKey === null && seqs.length > 0) {
      this.find('noKey', `the database holds no audit key, but ${plural(seqs.length, 'checkpoint', 'checkpoints')}: its key was deleted`);
      trusted ??= firstKey(bySeq, seqs);
    }
    if (databaseKey !== null && seqs.length === 0) {
      this.find('deletedFromDatabase', 'the database holds an audit key but no checkpoint, and the file beside holds none: every checkpoint was deleted');
    }

    // Rows missing against the file, lines missing against the rows, copies that differ, numbers missing from both.
    const onlyInFile = seqs.filter((s) => bySeq.get(s)!.db === undefined);
    for (const [from, to] of ranges(onlyInFile)) {
      // The file's line is written before the row commits: a process killed in between leaves the newest line alone.
      const crash = from === to && to === seqs.at(-1) ? ', or LabelDesk was stopped while it signed it' : '';
      this.find('deletedFromDatabase', `${checkpointRange(from, to)} of ${fileName} ${from === to ? 'is' : 'are'} missing from the database: deleted there${crash}`);
    }
    if (!read.missing) {
      const onlyInDb = seqs.filter((s) => bySeq.get(s)!.file === undefined);
      for (const [from, to] of ranges(onlyInDb)) {
        this.find('missingFromFile', `${checkpointRange(from, to)} of the database ${from === to ? 'is' : 'are'} missing from ${fileName}: deleted there`);
      }
    }
    for (const s of seqs) {
      const { db, file } = bySeq.get(s)!;
      if (db && file && (db.body !== file.body || db.signature !== file.signature)) {
        this.find('differs', `checkpoint ${s} differs between the database and ${fileName}`);
      }
    }
    const gaps: number[] = [];
    for (let s = 1; s <= (seqs.at(-1) ?? 0); s++) if (!bySeq.has(s)) gaps.push(s);
    for (const [from, to] of ranges(gaps)) {
      this.find('missingCheckpoints', `${checkpointRange(from, to)} ${from === to ? 'is' : 'are'} missing from both the database and ${fileName}`);
    }

    // Each checkpoint: its signature, its key, its link to the one before.
    const holding: { stored: StoredCheckpoint; body: CheckpointBody }[] = [];
    let before: { seq: number; hash: string } | null = null;
    for (const s of seqs) {
      const { db, file } = bySeq.get(s)!;
      const candidates = [db, file].filter((c): c is StoredCheckpoint => c !== undefined);
      const judged = candidates.map((c) => ({ c, verdict: judge(c, trusted) }));
      const good = judged.find((j) => j.verdict.ok);
      if (!good) {
        const { c, verdict } = judged[0];
        if (!verdict.ok) this.find(verdict.kind, `checkpoint ${s}${c.at ? ` of ${c.at}` : ''} ${verdict.words}`);
        before = null;
        continue;
      }
      const body = (good.verdict as { ok: true; body: CheckpointBody }).body;
      const hash = bodyHash(good.c.body);
      if (s === 1 && body.previous !== null) {
        this.find('brokenLink', `checkpoint 1 of ${body.at} names a checkpoint before it (${short(body.previous)}): the first checkpoints were removed`);
      } else if (before !== null && before.seq === s - 1 && body.previous !== before.hash) {
        this.find('brokenLink', `checkpoint ${s} of ${body.at} names ${short(body.previous)} as the checkpoint before it, but checkpoint ${s - 1} hashes to ${short(before.hash)}: a checkpoint was replaced`);
      }
      holding.push({ stored: good.c, body });
      before = { seq: s, hash };
    }

    this.checkChains(holding.map((h) => h.body));
    this.checkAccess(holding.map((h) => h.body));
    const newest = holding.at(-1);
    return {
      checkpoints: seqs.length,
      newest: newest ? { seq: newest.body.seq, at: newest.body.at } : null,
      fingerprint: trusted === null ? null : keyFingerprint(trusted),
      findings: this.findings,
    };
  }

  /** Every chain state a checkpoint signed must still hold: its newest first, then the older ones. */
  private checkChains(bodies: CheckpointBody[]): void {
    for (const table of AUDIT_TABLES) {
      const states = new Map<string, SignedState[]>();
      for (const body of bodies) {
        for (const [reportId, length, lastId, head] of body.chains?.[table] ?? []) {
          const list = states.get(reportId) ?? [];
          list.push({ length, lastId, head, seq: body.seq, at: body.at });
          states.set(reportId, list);
        }
      }
      if (states.size === 0) continue;
      const now = new Map(this.data.audit.heads(table, 0).map((h) => [h.reportId, h]));
      const words = TABLE_WORDS[table];
      for (const [reportId, list] of [...states].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
        const signed = list.at(-1)!;
        const current = now.get(reportId);
        const by = `checkpoint ${signed.seq} of ${signed.at}`;
        if (current === undefined) {
          this.find('truncated', `report ${reportId}: ${words.log} ${words.has} no entries, but ${by} signed ${plural(signed.length, 'entry', 'entries')} up to ${words.entry} ${signed.lastId}: all of them are missing`);
          continue;
        }
        if (current.lastId < signed.lastId) {
          const missing = signed.length - current.length;
          this.find(
            'truncated',
            `report ${reportId}: ${words.log} ${words.ends} at ${words.entry} ${current.lastId}, but ${by} signed it at ${words.entry} ${signed.lastId}: ` +
              `${missing > 0 ? plural(missing, 'entry', 'entries') : 'its entries'} after ${words.entry} ${current.lastId} up to ${words.entry} ${signed.lastId} ${missing === 1 ? 'is' : 'are'} missing`,
          );
          continue;
        }
        for (const state of [...list].reverse()) {
          const problem = this.stateProblem(table, reportId, state);
          if (problem) {
            this.find(problem.kind, `report ${reportId}: ${problem.words}`);
            break;
          }
        }
      }
    }
  }

  /** The access chain as the newest checkpoint that names it signed it: no shorter, its newest entry as signed. */
  private checkAccess(bodies: CheckpointBody[]): void {
    const signing = bodies.filter((b) => b.access !== undefined && b.access.lastId > 0).at(-1);
    if (!signing?.access) return;
    const signed = signing.access;
    const by = `checkpoint ${signing.seq} of ${signing.at}`;
    const current = this.data.access.head();
    if (current.lastId < signed.lastId) {
      this.find(
        'truncated',
        `the access record ends at id ${current.lastId}, but ${by} signed it at id ${signed.lastId}: its entries after id ${current.lastId} up to id ${signed.lastId} are missing`,
      );
      return;
    }
    const hash = this.data.access.hashOf(signed.lastId);
    if (hash === undefined) {
      this.find('entryRemoved', `the access record has no id ${signed.lastId}, which ${by} signed as its newest entry: it was removed`);
    } else if (hash !== signed.head) {
      this.find('recomputed', `the access record at id ${signed.lastId} hashes to ${short(hash)}, but ${by} signed ${short(signed.head)} there: it was recomputed or changed after it was signed`);
    }
  }

  private stateProblem(table: AuditTable, reportId: string, state: SignedState): { kind: CheckpointFindingKind; words: string } | null {
    const words = TABLE_WORDS[table];
    const by = `checkpoint ${state.seq} of ${state.at}`;
    const entry = this.data.audit.entry(table, state.lastId);
    if (entry === undefined || entry.reportId !== reportId) {
      return { kind: 'entryRemoved', words: `${words.log} ${words.has} no ${words.entry} ${state.lastId}, which ${by} signed as ${words.its} newest entry: it was removed` };
    }
    if (entry.hash !== state.head) {
      return {
        kind: 'recomputed',
        words: `${words.log} at ${words.entry} ${state.lastId} ${words.hashes} to ${short(entry.hash)}, but ${by} signed ${short(state.head)} there: the chain was recomputed or changed after it was signed`,
      };
    }
    return null;
  }
}

type Verdict = { ok: true; body: CheckpointBody } | { ok: false; kind: 'badSignature' | 'otherKey'; words: string };

/**
 * The `tables` and `access` of a body this service wrote (the newest row, to know what moved
 * since): read from the part before `chains`, which at a million reports is tens of megabytes not
 * worth parsing.
 */
function signedHeads(body: string): Pick<CheckpointBody, 'tables' | 'access'> {
  const end = body.indexOf(',"chains":');
  return JSON.parse(end < 0 ? body : `${body.slice(0, end)}}`) as CheckpointBody;
}

/** A stored checkpoint against the key it must be signed by (null: its own, where the database has none). */
function judge(c: StoredCheckpoint, trusted: string | null): Verdict {
  let body: CheckpointBody;
  try {
    body = JSON.parse(c.body) as CheckpointBody;
  } catch {
    return { ok: false, kind: 'badSignature', words: 'holds a body that is not JSON: it was changed' };
  }
  if (body?.format !== CHECKPOINT_FORMAT || body.version !== CHECKPOINT_VERSION || body.seq !== c.seq || typeof body.publicKey !== 'string') {
    return { ok: false, kind: 'badSignature', words: 'holds a body that is no checkpoint of this number: it was changed' };
  }
  const signature = Buffer.from(c.signature, 'base64');
  const data = Buffer.from(c.body, 'utf8');
  const key = trusted ?? body.publicKey;
  if (samePem(body.publicKey, key) && verifies(data, key, signature)) {
    if (bodyHash(c.body) !== c.hash) return { ok: false, kind: 'badSignature', words: `has a stored hash (${short(c.hash)}) that is not its body's: it was changed` };
    return { ok: true, body };
  }
  if (!samePem(body.publicKey, key) && verifies(data, body.publicKey, signature)) {
    return { ok: false, kind: 'otherKey', words: `is signed by another key (${safeFingerprint(body.publicKey)}), not by this database's audit key (${safeFingerprint(key)})` };
  }
  return { ok: false, kind: 'badSignature', words: `has a signature that does not verify with the audit key (${safeFingerprint(key)}): it was changed or forged` };
}

function verifies(data: Buffer, pem: string, signature: Buffer): boolean {
  try {
    return verifySignature(null, data, createPublicKey(pem), signature);
  } catch {
    return false;
  }
}

function safeFingerprint(pem: string): string {
  try {
    return keyFingerprint(pem);
  } catch {
    return 'a key that does not parse';
  }
}

function samePem(a: string, b: string): boolean {
  return a.trim() === b.trim();
}

function firstKey(bySeq: Map<number, { db?: StoredCheckpoint; file?: StoredCheckpoint }>, seqs: number[]): string | null {
  for (const s of seqs) {
    for (const c of [bySeq.get(s)!.db, bySeq.get(s)!.file]) {
      try {
        const key = c && (JSON.parse(c.body) as CheckpointBody).publicKey;
        if (typeof key === 'string') return key;
      } catch {
        // the next one
      }
    }
  }
  return null;
}

/** Runs of consecutive numbers: [1, 2, 3, 7] → [[1, 3], [7, 7]]. */
function ranges(numbers: number[]): [number, number][] {
  const out: [number, number][] = [];
  for (const n of numbers) {
    const last = out.at(-1);
    if (last && n === last[1] + 1) last[1] = n;
    else out.push([n, n]);
  }
  return out;
}

function checkpointRange(from: number, to: number): string {
  return from === to ? `checkpoint ${from}` : `checkpoints ${from}–${to}`;
}

function plural(n: number, one: string, many: string): string {
  return `${n} ${n === 1 ? one : many}`;
}

function short(hash: unknown): string {
  return typeof hash === 'string' ? hash.slice(0, 12) : 'nothing';
}

/** The running service's clock for checkpoints: what time it is, and a call after a while. */
export interface CheckpointClock {
  now(): Date;
  after(ms: number, run: () => void): { cancel(): void };
}

export function systemClock(now: () => Date = () => new Date()): CheckpointClock {
  return {
    now,
    after: (ms, run) => {
      // Unref'd: a pending checkpoint alone does not keep a process alive; the service's server does.
      const timer = setTimeout(run, ms).unref();
      return { cancel: () => clearTimeout(timer) };
    },
  };
}

export interface CheckpointScheduleOptions {
  /** Default CHECKPOINT_EVERY_MS: an hour. */
  everyMs?: number;
  clock?: CheckpointClock;
  logError?: (line: string) => void;
  /** Told of each checkpoint the schedule signed. */
  onCheckpoint?: (checkpoint: StoredCheckpoint) => void;
}

/**
 * The running service's checkpoints: one at start, one every hour while there were changes, and
 * one at a graceful stop, each only when a chain moved since the newest checkpoint (or there is
 * none yet). A checkpoint that cannot be signed (no key, a key file others may read) is told once,
 * by its words, and tried again at the next turn; the service runs on.
 */
export class CheckpointSchedule {
  private timer: { cancel(): void } | null = null;
  private stopped = false;
  private told: string | null = null;
  private readonly everyMs: number;
  private readonly clock: CheckpointClock;

  constructor(
    private readonly checkpoints: AuditCheckpoints,
    private readonly options: CheckpointScheduleOptions = {},
  ) {
    this.everyMs = options.everyMs ?? CHECKPOINT_EVERY_MS;
    this.clock = options.clock ?? systemClock();
  }

  /** Signs the start's checkpoint and schedules the next turn. */
  start(): this {
    this.turn();
    return this;
  }

  /** Tries now: the key was just handed over. */
  wake(): void {
    if (!this.stopped) this.attempt();
  }

  /** The stop's checkpoint; no turn after it. */
  stop(): void {
    if (this.stopped) return;
    this.stopped = true;
    this.timer?.cancel();
    this.timer = null;
    this.attempt();
  }

  private turn(): void {
    this.timer = null;
    if (this.stopped) return;
    this.attempt();
    this.timer = this.clock.after(this.everyMs, () => this.turn());
  }

  private attempt(): void {
    try {
      const signed = this.checkpoints.checkpointIfMoved();
      this.told = null;
      if (signed) this.options.onCheckpoint?.(signed);
    } catch (err) {
      const words = (err as Error).message;
      if (words !== this.told) {
        this.told = words;
        (this.options.logError ?? ((line: string) => console.error(line)))(`LabelDesk: no audit checkpoint was signed: ${words}`);
      }
    }
  }
}
