/**
 * Several local desks of one company on one remote, nothing mocked: the remote is a real
 * LabelDesk service over HTTP on its own SQLite file (startTestService), and each desk is a
 * SyncPair on it (SyncPair.onRemote): its own SQLite file and service with its /v2 API, its own
 * fault proxy in front of the remote and its own sync worker (or `labeldesk sync` child).
 *
 * Each desk reaches the remote with a key of its own, so the remote's change log says whose
 * change each one was: a desk's push (by its key) or an edit made on the remote itself.
 */
import { expect } from 'vitest';
import type { BundleReport } from '../../schema/bundle';
import type { ChangeEntry } from '../../schema/change-log';
import type { SyncOptions } from '../../sync';
import { startTestService, type TestService } from './service-fixture';
import { COMPANY, SyncPair } from './sync-pair';

/** Who changed a field: the remote itself (`remote`) or a desk by its name (`desk1`, …). */
export type Party = string;
export const REMOTE: Party = 'remote';

export interface Desk {
  name: Party;
  pair: SyncPair;
  /** The id of the desk's remote key, as the remote's change log names it. */
  remoteKeyId: string;
}

/** One field's change on the remote: report, field (the change log's name), new value, by whom, at which log position. */
export interface RemoteChange {
  seq: number;
  id: string;
  field: string;
  value: unknown;
  party: Party;
}

export class SyncDesks {
  private constructor(
    readonly remote: TestService,
    readonly desks: Desk[],
    readonly reportIds: readonly string[],
  ) {}

  /**
   * The remote with `reports`, and `count` desks on it, each with its key and proxy; nothing
   * pulled yet. `worker`: the options every desk's worker runs with.
   */
  static async start(count: number, reports: BundleReport[], worker: Partial<SyncOptions> = {}): Promise<SyncDesks> {
    const remote = await startTestService(reports);
    const desks: Desk[] = [];
    try {
      for (let i = 1; i <= count; i++) {
        const name = `desk${i}`;
        const key = remote.service.apiKeys.create(COMPANY, ['labelReports:read', 'labelReports:update'], name);
        desks.push({ name, pair: await SyncPair.onRemote(remote, key.key, worker), remoteKeyId: key.id });
      }
    } catch (err) {
      for (const desk of desks) await desk.pair.close();
      await remote.stop();
      throw err;
    }
    return new SyncDesks(
      remote,
      desks,
      reports.map((r) => r.id),
    );
  }

  desk(name: Party): Desk {
    const desk = this.desks.find((d) => d.name === name);
    if (!desk) throw new Error(`no desk ${name}`);
    return desk;
  }

  /** A PATCH on the remote itself (its `acme` key, no desk's) that must succeed. */
  remoteEdit(id: string, patch: object): Promise<any> {
    return this.desks[0].pair.remoteEdit(id, patch);
  }

  remoteReport(id: string): Promise<any> {
    return this.desks[0].pair.remoteReport(id);
  }

  /** The newest position of the remote's change log over the reports. */
  remoteSeq(): number {
    let seq = 0;
    for (const id of this.reportIds) for (const entry of this.remote.service.history(id)) seq = Math.max(seq, entry.seq);
    return seq;
  }

  /** The field changes the remote logged after position `after`, oldest first; per-company fields only of the company. */
  remoteChangesSince(after: number): RemoteChange[] {
    const changes: RemoteChange[] = [];
    for (const id of this.reportIds) {
      for (const entry of this.remote.service.history(id)) {
        if (entry.seq <= after || entry.kind !== 'update') continue;
        const party = this.partyOf(entry);
        for (const change of entry.changes) {
          if (change.companyId !== undefined && change.companyId !== COMPANY) continue;
          changes.push({ seq: entry.seq, id, field: change.field, value: change.new, party });
        }
      }
    }
    return changes.sort((a, b) => a.seq - b.seq);
  }

  private partyOf(entry: ChangeEntry): Party {
    if (entry.actor.kind !== 'apiKey') return REMOTE;
    const keyId = entry.actor.keyId;
    return this.desks.find((d) => d.remoteKeyId === keyId)?.name ?? REMOTE;
  }

  /**
   * Cycles on every desk until a whole round of them left the remote unchanged with nothing
   * pending on any desk: then every desk has completed a cycle after the remote's last change,
   * so each has pulled all of it. At most `rounds` rounds; the number used.
   */
  async settleAll(rounds = 6): Promise<number> {
    for (let round = 1; round <= rounds; round++) {
      const before = this.remoteSeq();
      for (const desk of this.desks) await desk.pair.settle(20);
      if (this.remoteSeq() === before) return round;
    }
    throw new Error(`the desks still changed the remote after ${rounds} rounds of cycles`);
  }

  /** Every desk shows what the remote shows, report by report and field by field, with nothing pending. */
  async expectAllMirrored(): Promise<void> {
    for (const desk of this.desks) {
      expect(await desk.pair.outbox(), `outbox of ${desk.name}`).toEqual([]);
      await desk.pair.expectMirrored();
    }
  }

  async close(): Promise<void> {
    for (const desk of this.desks) await desk.pair.close();
    await this.remote.stop();
  }
}
