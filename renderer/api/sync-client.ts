/**
 * The /local/sync endpoints, typed: every answer checked against schema/sync.ts and every body
 * checked before it leaves, on the same request helper (and so the same errors in words) as the
 * rest of the API client.
 */
import { z } from 'zod';
import {
  deadLetterActionBodySchema,
  deadLetterSchema,
  outboxEntrySchema,
  refusedReportSchema,
  reportSyncStateSchema,
  resolveConflictBodySchema,
  syncConflictSchema,
  syncSettingsBodySchema,
  syncSettingsSchema,
  syncStatusSchema,
  syncTestBodySchema,
  syncTestResultSchema,
} from '../../schema/sync';
import type {
  DeadLetter,
  DeadLetterActionBody,
  OutboxEntry,
  RefusedFromRemote,
  ReportSyncState,
  ResolveConflictBody,
  SyncConflict,
  SyncSettings,
  SyncSettingsBody,
  SyncStatus,
  SyncTestBody,
  SyncTestResult,
} from '../../schema/sync';
import { checked, parse } from './client';
import type { ApiClient } from './client';

export type {
  DeadLetter,
  OutboxEntry,
  RefusedFromRemote,
  ReportSyncState,
  SyncConflict,
  SyncSettings,
  SyncSettingsBody,
  SyncState,
  SyncStatus,
  SyncTestBody,
  SyncTestResult,
  SyncValue,
} from '../../schema/sync';

export interface SyncClient {
  status(signal?: AbortSignal): Promise<SyncStatus>;
  /** Starts a cycle now; the service answers before it ends (202). */
  syncNow(): Promise<void>;
  conflicts(signal?: AbortSignal): Promise<SyncConflict[]>;
  resolveConflict(id: string, keep: ResolveConflictBody['keep']): Promise<void>;
  deadLetters(signal?: AbortSignal): Promise<DeadLetter[]>;
  actOnDeadLetter(id: string, action: DeadLetterActionBody['action']): Promise<void>;
  outbox(signal?: AbortSignal): Promise<OutboxEntry[]>;
  /** Reports the remote sent that this desk did not take, with why. */
  refused(signal?: AbortSignal): Promise<RefusedFromRemote[]>;
  /** Whether a report mirrors the remote, and whose figures it shows. */
  reportState(id: string, signal?: AbortSignal): Promise<ReportSyncState>;
  settings(signal?: AbortSignal): Promise<SyncSettings>;
  saveSettings(body: SyncSettingsBody): Promise<void>;
  /** Tries a remote without saving anything. */
  test(body: SyncTestBody): Promise<SyncTestResult>;
}

const conflictList = z.array(syncConflictSchema);
const deadLetterList = z.array(deadLetterSchema);
const outboxList = z.array(outboxEntrySchema);
const refusedList = z.array(refusedReportSchema);

const path = (base: string, id: string) => `${base}/${encodeURIComponent(id)}`;

export function syncClient(api: ApiClient): SyncClient {
  return {
    async status(signal) {
      return parse(syncStatusSchema, await api.request('GET', '/local/sync', { signal }), 'a sync status');
    },
    async syncNow() {
      await api.request('POST', '/local/sync');
    },
    async conflicts(signal) {
      return parse(conflictList, await api.request('GET', '/local/sync/conflicts', { signal }), 'a conflict list');
    },
    async resolveConflict(id, keep) {
      await api.request('POST', path('/local/sync/conflicts', id), { body: checked(resolveConflictBodySchema, { keep }) });
    },
    async deadLetters(signal) {
      return parse(deadLetterList, await api.request('GET', '/local/sync/dead-letters', { signal }), 'a list of refused edits');
    },
    async actOnDeadLetter(id, action) {
      await api.request('POST', path('/local/sync/dead-letters', id), { body: checked(deadLetterActionBodySchema, { action }) });
    },
    async outbox(signal) {
      return parse(outboxList, await api.request('GET', '/local/sync/outbox', { signal }), 'a list of unsent edits');
    },
    async refused(signal) {
      return parse(refusedList, await api.request('GET', '/local/sync/refused', { signal }), 'a list of reports refused from the remote');
    },
    async reportState(id, signal) {
      return parse(reportSyncStateSchema, await api.request('GET', path('/local/sync/reports', id), { signal }), 'a report’s sync state');
    },
    async settings(signal) {
      return parse(syncSettingsSchema, await api.request('GET', '/local/sync/settings', { signal }), 'sync settings');
    },
    async saveSettings(body) {
      await api.request('PUT', '/local/sync/settings', { body: checked(syncSettingsBodySchema, body) });
    },
    async test(body) {
      return parse(syncTestResultSchema, await api.request('POST', '/local/sync/test', { body: checked(syncTestBodySchema, body) }), 'a connection test');
    },
  };
}
