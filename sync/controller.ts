/**
 * Sync as a running service holds it: the worker of the current settings, the remote key in
 * memory only, and what /local/sync answers when no worker runs. `serve --remote` starts it
 * with its options; the desktop starts it from the settings in the database once its main
 * process hands over the key it keeps with safeStorage; a settings change restarts the worker.
 */
import { ConflictError } from '../model/errors';
import type { SyncSettings, SyncSettingsBody, SyncStatus, SyncTestBody, SyncTestResult } from '../schema/sync';
import type { SyncService } from './synced-service';
import type { SyncOptions, SyncWorker } from './index';
import { RemoteClient, RemoteFailure } from './remote-client';
import { createSyncWorker, type WorkerHooks } from './worker';

/** The tunables of `serve`/`sync` (page size, overlap, interval, conflicts …): every option but where and who. */
export type SyncTunables = Partial<Omit<SyncOptions, 'remoteUrl' | 'remoteKey' | 'companyId'>>;

export interface SyncControllerOptions {
  /** Sync with this remote from the start (`serve --remote`), saving its URL and company as the settings. */
  remote?: SyncOptions;
  /** For workers started from the settings. */
  tunables?: SyncTunables;
  hooks?: WorkerHooks;
}

/** A connection test gives up sooner than a sync request: a person is waiting for it. */
const TEST_TIMEOUT_MS = 10_000;

export const NO_KEY_MESSAGE = 'no remote API key is set: enter it in Settings › Sync (it is kept encrypted, never in plain text)';

export class SyncController {
  private worker: SyncWorker | null = null;
  private remoteKey: string | null = null;
  private tunables: SyncTunables;
  /** Settings changes and closing, one at a time. */
  private queue: Promise<unknown> = Promise.resolve();
  private closed = false;

  constructor(
    private readonly service: SyncService,
    private readonly options: SyncControllerOptions = {},
  ) {
    this.tunables = options.tunables ?? {};
  }

  /** Starts the worker when there is a remote and a key. */
  start(): void {
    const { remote } = this.options;
    if (remote) {
      const { remoteUrl, remoteKey, companyId, ...tunables } = remote;
      this.tunables = { ...this.tunables, ...tunables };
      this.remoteKey = remoteKey;
      this.service.sync.setRemote(remoteUrl, companyId ?? null);
    }
    this.restartNow();
  }

  settings(): SyncSettings {
    const { remoteUrl, companyId } = this.service.sync.settings();
    return { remoteUrl, companyId, hasKey: this.remoteKey !== null };
  }

  /** PUT /local/sync/settings: the URL and company into the database, the key into memory; the worker restarts. */
  updateSettings(body: SyncSettingsBody): Promise<SyncSettings> {
    return this.serially(async () => {
      const { remoteUrl } = this.service.sync.settings();
      if (body.remoteUrl === null) {
        this.service.sync.setRemote(null, null);
      } else {
        // Another remote has another key: the old one does not travel to it.
        if (body.remoteKey !== undefined) this.remoteKey = body.remoteKey;
        else if (remoteUrl !== body.remoteUrl) this.remoteKey = null;
        this.service.sync.setRemote(body.remoteUrl, body.companyId ?? null);
      }
      await this.restart();
      return this.settings();
    });
  }

  /** The key the desktop's main process keeps with safeStorage (null: forgotten). */
  setKey(remoteKey: string | null): Promise<void> {
    return this.serially(async () => {
      if (remoteKey === this.remoteKey) return;
      this.remoteKey = remoteKey;
      await this.restart();
    });
  }

  status(): SyncStatus {
    if (this.worker) return this.worker.status();
    const saved = this.service.sync.savedStatus();
    if (!saved.configured) return saved;
    // A remote without a key here: nothing syncs until the key is given.
    return { ...saved, state: 'paused', lastError: { at: saved.lastError?.at ?? new Date().toISOString(), message: NO_KEY_MESSAGE }, nextAttemptAt: null };
  }

  /** POST /local/sync: a cycle now. */
  trigger(): void {
    if (!this.worker) {
      const configured = this.service.sync.settings().remoteUrl !== null;
      throw new ConflictError(configured ? 'SYNC_NO_KEY' : 'SYNC_OFF', configured ? `cannot sync now: ${NO_KEY_MESSAGE}` : 'sync is off: set a remote first');
    }
    this.worker.trigger();
  }

  /** POST /local/sync/test: reaches the remote with these settings, saving nothing. */
  async test(body: SyncTestBody): Promise<SyncTestResult> {
    const saved = this.service.sync.settings();
    const key = body.remoteKey ?? (saved.remoteUrl === body.remoteUrl ? this.remoteKey : null);
    if (key === null) return { ok: false, companyId: body.companyId ?? null, companyName: null, message: 'give the remote API key to test the connection' };
    let remote: RemoteClient | undefined;
    try {
      remote = new RemoteClient(body.remoteUrl, key, TEST_TIMEOUT_MS);
      const session = await remote.session();
      if (session) {
        if (body.companyId !== undefined && body.companyId !== session.companyId) {
          return {
            ok: false,
            companyId: session.companyId,
            companyName: session.companyName,
            message: `the key belongs to company '${session.companyId}' (${session.companyName}), not '${body.companyId}'`,
          };
        }
        await remote.list({ pageSize: '1', output: 'minimal' });
        return { ok: true, companyId: session.companyId, companyName: session.companyName, message: `connected as ${session.companyName}` };
      }
      const page = await remote.list({ pageSize: '1', output: 'minimal' });
      const reports = `${page.totalDocuments} label ${page.totalDocuments === 1 ? 'report' : 'reports'}`;
      if (body.companyId === undefined) {
        return { ok: false, companyId: null, companyName: null, message: `the key reaches ${reports}, but the remote does not say its company: enter the company id` };
      }
      return { ok: true, companyId: body.companyId, companyName: null, message: `connected: the key reaches ${reports}` };
    } catch (err) {
      const message = err instanceof RemoteFailure ? err.message : `cannot test the connection: ${(err as Error).message}`;
      return { ok: false, companyId: body.companyId ?? null, companyName: null, message };
    } finally {
      remote?.close();
    }
  }

  /** Stops the worker after the step in flight; nothing starts again. */
  close(): Promise<void> {
    this.closed = true;
    return this.serially(() => this.stopWorker());
  }

  private async restart(): Promise<void> {
    await this.stopWorker();
    this.restartNow();
  }

  private restartNow(): void {
    if (this.closed || this.worker) return;
    const { remoteUrl, companyId } = this.service.sync.settings();
    if (remoteUrl === null || this.remoteKey === null) {
      this.service.sync.saveState({ ...this.service.sync.savedState(), state: remoteUrl === null ? 'off' : 'paused', nextAttemptAt: null });
      return;
    }
    this.worker = createSyncWorker(this.service, { ...this.tunables, remoteUrl, remoteKey: this.remoteKey, companyId: companyId ?? undefined }, this.options.hooks);
    this.worker.start();
  }

  private async stopWorker(): Promise<void> {
    const worker = this.worker;
    this.worker = null;
    await worker?.stop();
  }

  private serially<T>(fn: () => Promise<T>): Promise<T> {
    const next = this.queue.then(fn, fn);
    this.queue = next.catch(() => undefined);
    return next;
  }
}
