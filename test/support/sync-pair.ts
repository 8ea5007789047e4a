/**
 * Two real LabelDesk instances on loopback for sync tests, nothing mocked on either side:
 * - the remote: a service over HTTP on its own SQLite file (startTestService), seeded like any
 *   test service, edited through its /v2 API as another desk would;
 * - a fault proxy in front of the remote (fault-proxy.ts): every request the local side makes
 *   goes through it;
 * - the local: a second service over HTTP on its own SQLite file, whose sync worker (created in
 *   this process with createSyncWorker) mirrors what the remote shows to the remote key. It can
 *   also run as a child process (`labeldesk sync`, `labeldesk serve --remote`) to be killed.
 *
 * `expectMirrored()` compares both sides fully: every report the remote shows to the company's
 * key, retrieved and listed on each side, field by field.
 *
 * With `remote: 'vendor'` the local side talks (through the fault proxy) to a vendor-shaped
 * remote (vendor-remote.ts) in front of the LabelDesk remote: it sees only what
 * the interface promises (docs/api.md), and no `/local/session`, so the worker is given the company.
 * `expectMirrored()` then compares what the vendor remote shows with what the desk shows of the
 * same fields.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, vi } from 'vitest';
import { startService, type RunningService } from '../../host/start-service';
import type { BundleReport } from '../../schema/bundle';
import type { ChangeEntry } from '../../schema/change-log';
import type { Permission } from '../../schema/report';
import type { DeadLetter, OutboxEntry, SyncConflict } from '../../schema/sync';
import { createSyncWorker, type CycleOutcome, type SyncOptions, type SyncWorker } from '../../sync';
import type { WorkerHooks } from '../../sync/worker';
import { REPO } from '../cli/run-labeldesk';
import { FaultProxy } from './fault-proxy';
import { COMPANIES, startTestService, type KeyName, type TestService } from './service-fixture';
import { VendorRemote, type VendorRemoteOptions } from './vendor-remote';
import { WHOLE_REPORTS_PARAMETER } from '../../query/list-query';
import { blankDatabase } from './blank-database';

export const COMPANY = 'acme';

/** What the local side syncs with: another LabelDesk, or the vendor-shaped remote in front of it. */
export type RemoteKind = 'labeldesk' | 'vendor';
/** Both kinds, for `describe.each` over the scenarios. */
export const REMOTE_KINDS: readonly RemoteKind[] = ['labeldesk', 'vendor'];

/** What a local key of the pair may do. */
export const LOCAL_KEYS = {
  manager: ['labelReports:read', 'labelReports:update', 'sync:manage'],
  editor: ['labelReports:read', 'labelReports:update'],
  reader: ['labelReports:read'],
} as const satisfies Record<string, readonly Permission[]>;
export type LocalKeyName = keyof typeof LOCAL_KEYS;

export interface PairOptions {
  /** Reports on the remote before anything starts. */
  reports?: BundleReport[];
  /** The worker's options beyond the remote's address and key. */
  worker?: Partial<SyncOptions>;
  /** The remote key the local side uses (a key of startTestService's set; default `acme`). */
  remoteKey?: KeyName;
  /** What the local side syncs with (default `labeldesk`). */
  remote?: RemoteKind;
  /**
   * The vendor remote's options, with `remote: 'vendor'`. Unless told otherwise it shows the
   * not-shown fields `mixed` (kept, null or missing per report) and answers a PATCH with `least`,
   * the leanest answers the interface allows, so the scenarios meet them.
   */
  vendor?: VendorRemoteOptions;
  /**
   * Whether the remote answers the list's LabelDesk extension (default true). False: the proxy
   * leaves the parameter out, so the remote answers as one without it, and every report new to
   * the mirror is retrieved, as from an older LabelDesk (for the scenarios of the retrieves).
   */
  wholeReports?: boolean;
}

export interface Answer {
  status: number;
  body: any;
  headers: Headers;
}

export interface RequestInit {
  method?: string;
  body?: unknown;
  headers?: Record<string, string>;
}

export interface SpawnedLocal {
  child: ChildProcess;
  stdout(): string;
  stderr(): string;
  /** Resolves when standard output or error matches `pattern`; rejects when the process ends first. */
  outputMatching(pattern: RegExp): Promise<string>;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

export class SyncPair {
  /** The worker of this process, after `startWorker()`. */
  worker: SyncWorker | undefined;
  private readonly children: ChildProcess[] = [];
  private readonly keys = new Map<LocalKeyName, string>();

  private constructor(
    readonly remote: TestService,
    readonly proxy: FaultProxy,
    public local: RunningService,
    readonly dir: string,
    readonly localDbFile: string,
    readonly remoteKey: string,
    private readonly workerDefaults: Partial<SyncOptions>,
    /** The vendor-shaped remote between the proxy and the remote, with `remote: 'vendor'`. */
    readonly vendor: VendorRemote | undefined,
    private readonly vendorOptions: VendorRemoteOptions,
    /** False for a desk started on a remote it shares with others: closing the desk leaves the remote running. */
    private readonly ownsRemote = true,
  ) {}

  static async start(options: PairOptions = {}): Promise<SyncPair> {
    const remote = await startTestService(options.reports ?? []);
    const vendor = options.remote === 'vendor' ? await VendorRemote.start(remote.url, { notShown: 'mixed', patchAnswer: 'least', ...options.vendor }) : undefined;
    const proxy = await FaultProxy.start(vendor?.url ?? remote.url);
    if (options.wholeReports === false) proxy.ignoreQueryParameter(WHOLE_REPORTS_PARAMETER);
    const dir = mkdtempSync(join(tmpdir(), 'labeldesk-sync-'));
    const localDbFile = blankDatabase(join(dir, 'local.sqlite'));
    const local = await startService({ dbFile: localDbFile, staticDir: join(dir, 'no-ui') });
    const remoteKey = remote.keys[options.remoteKey ?? 'acme'];
    return new SyncPair(remote, proxy, local, dir, localDbFile, remoteKey, options.worker ?? {}, vendor, options.vendor ?? {});
  }

  /** What the local side syncs with. */
  get remoteKind(): RemoteKind {
    return this.vendor ? 'vendor' : 'labeldesk';
  }

  /** Another local desk, with its own proxy and database, on a remote already running (which `close()` leaves running). */
  static async onRemote(remote: TestService, remoteKey: string, worker: Partial<SyncOptions> = {}): Promise<SyncPair> {
    const proxy = await FaultProxy.start(remote.url);
    const dir = mkdtempSync(join(tmpdir(), 'labeldesk-sync-'));
    const localDbFile = blankDatabase(join(dir, 'local.sqlite'));
    const local = await startService({ dbFile: localDbFile, staticDir: join(dir, 'no-ui') });
    return new SyncPair(remote, proxy, local, dir, localDbFile, remoteKey, worker, undefined, {}, false);
  }

  /** The worker options this pair's local side runs with. */
  options(overrides: Partial<SyncOptions> = {}): SyncOptions {
    return { remoteUrl: this.proxy.url, remoteKey: this.remoteKey, companyId: COMPANY, ...this.workerDefaults, ...overrides };
  }

  /** A worker for the local service, in this process (the previous one stopped first). */
  async startWorker(overrides: Partial<SyncOptions> = {}, hooks?: WorkerHooks): Promise<SyncWorker> {
    await this.worker?.stop();
    this.worker = createSyncWorker(this.local.service, this.options(overrides), hooks);
    return this.worker;
  }

  /** One cycle of the worker (started with the defaults when there is none yet). */
  async cycle(): Promise<CycleOutcome> {
    const worker = this.worker ?? (await this.startWorker());
    return worker.runCycle();
  }

  /** One cycle that must complete. */
  async cycleOk(): Promise<void> {
    expect(await this.cycle()).toEqual({ ok: true });
  }

  /** Cycles until one completes with nothing left to push, at most `max` of them. */
  async settle(max = 20): Promise<number> {
    for (let i = 1; i <= max; i++) {
      const outcome = await this.cycle();
      if (outcome.ok && this.worker!.status().pending === 0) return i;
    }
    throw new Error(`no quiet cycle after ${max}: ${JSON.stringify(this.worker!.status())}`);
  }

  /**
   * A local API key of the company. The company itself comes to the local database with the
   * first report pulled; before that the key cannot be made.
   */
  localKey(name: LocalKeyName = 'manager'): string {
    let key = this.keys.get(name);
    if (!key) {
      key = this.local.service.apiKeys.create(COMPANY, LOCAL_KEYS[name], `sync-test-${name}`).key;
      this.keys.set(name, key);
    }
    return key;
  }

  /** The company in the local database, made as an administrator would before the first sync. */
  createLocalCompany(): void {
    this.local.service.companies.upsert(COMPANIES.find((c) => c.id === COMPANY)!);
  }

  /** A request to the remote itself (not through the proxy), with a key of its set. */
  remoteApi(path: string, init: RequestInit & { key?: KeyName } = {}): Promise<Answer> {
    return request(this.remote.url, path, this.remote.keys[init.key ?? 'acme'], init);
  }

  /** A request to what the local side syncs with (the vendor remote, else the remote), not through the proxy, with a key of the remote's set. */
  upstreamApi(path: string, init: RequestInit & { key?: KeyName } = {}): Promise<Answer> {
    return request(this.vendor?.url ?? this.remote.url, path, this.remote.keys[init.key ?? 'acme'], init);
  }

  /** A request to the local service, with a local key (`manager` unless told). */
  localApi(path: string, init: RequestInit & { key?: LocalKeyName | string } = {}): Promise<Answer> {
    const key = init.key === undefined ? this.localKey() : init.key in LOCAL_KEYS ? this.localKey(init.key as LocalKeyName) : init.key;
    return request(this.local.url, path, key, init);
  }

  /** A PATCH on the remote that must succeed; the report as the remote answers it. */
  async remoteEdit(id: string, patch: object, key: KeyName = 'acme'): Promise<any> {
    const answer = await this.remoteApi(`/v2/labelReports/${encodeURIComponent(id)}`, { method: 'PATCH', body: patch, key });
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    return answer.body;
  }

  /** A PATCH on the local service that must succeed; the report as it answers it. */
  async localEdit(id: string, patch: object): Promise<any> {
    const answer = await this.localApi(`/v2/labelReports/${encodeURIComponent(id)}`, { method: 'PATCH', body: patch });
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    return answer.body;
  }

  async remoteReport(id: string): Promise<any> {
    const answer = await this.remoteApi(`/v2/labelReports/${encodeURIComponent(id)}`);
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    return answer.body;
  }

  /** The report as the local service shows it, or undefined when it does not (404). */
  async localReport(id: string): Promise<any> {
    const answer = await this.localApi(`/v2/labelReports/${encodeURIComponent(id)}`, { key: 'reader' });
    if (answer.status === 404) return undefined;
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    return answer.body;
  }

  /** The ids a side lists to the company's key, in id order. */
  async remoteIds(): Promise<string[]> {
    return ids(await this.remoteApi('/v2/labelReports?output=minimal&order=id[asc]&pageSize=1000000'));
  }

  async localIds(): Promise<string[]> {
    return ids(await this.localApi('/v2/labelReports?output=minimal&order=id[asc]&pageSize=1000000', { key: 'reader' }));
  }

  /** `GET /local/sync/conflicts` of the local service. */
  async conflicts(): Promise<SyncConflict[]> {
    return this.localGet('/local/sync/conflicts');
  }

  /** `GET /local/sync/dead-letters` of the local service. */
  async deadLetters(): Promise<DeadLetter[]> {
    return this.localGet('/local/sync/dead-letters');
  }

  /** `GET /local/sync/outbox` of the local service: the edits not yet sent. */
  async outbox(): Promise<OutboxEntry[]> {
    return this.localGet('/local/sync/outbox');
  }

  /** The remote's change log of a report: what reached it, oldest first. */
  remoteHistory(id: string): ChangeEntry[] {
    return this.remote.service.history(id);
  }

  private async localGet(path: string): Promise<any> {
    const answer = await this.localApi(path, { key: 'reader' });
    expect(answer.status, `${path}: ${JSON.stringify(answer.body)}`).toBe(200);
    return answer.body;
  }

  /** The local change log of a report, oldest first. */
  localHistory(id: string): ChangeEntry[] {
    return this.local.service.history(id);
  }

  /**
   * Both sides show the company's key the same reports, each the same in every field, through
   * retrieve and through list pages of `output=normal` and `output=minimal`. `localOnly`: reports
   * that exist only locally (never mirrored), left out of the comparison.
   *
   * Against the vendor remote, each answer of the desk is compared in the fields the vendor's
   * answer shows (the desk may show more). The figures (calculatedSenseData, trimmedSenseData,
   * alert, minimalSenseData) are compared only where the desk can agree with the remote today:
   * not for reports with humidity readings or a trim, nor at all when the vendor's `figures`
   * hook is set. vendor-figures.test.ts holds those cases.
   */
  async expectMirrored(localOnly: readonly string[] = []): Promise<void> {
    const remoteIds = await this.remoteIds();
    const localIds = (await this.localIds()).filter((id) => !localOnly.includes(id));
    expect(localIds, 'the reports the local side shows').toEqual(remoteIds);
    const figuresApart = await this.figuresApart(remoteIds);
    const seen = (shown: any, local: any, id: string) => {
      const l = this.vendor ? projectOnto(local, shown) : local;
      return figuresApart.has(id) ? [withoutFigures(l), withoutFigures(shown)] : [l, shown];
    };
    for (const id of remoteIds) {
      const [upstream, local] = await Promise.all([this.upstreamReport(id), this.localReport(id)]);
      const [l, u] = seen(withoutClockFields(upstream), withoutClockFields(local), id);
      expect(l, `report ${id} retrieved on both sides`).toEqual(u);
      const days = [local?.label?.estimatedBatteryDaysLeft, upstream.label.estimatedBatteryDaysLeft];
      expect(Math.abs(days[0] - days[1]), `battery days of ${id}: local ${days[0]}, remote ${days[1]}`).toBeLessThanOrEqual(1);
    }
    for (const output of ['normal', 'minimal']) {
      const list = `/v2/labelReports?output=${output}&order=id[asc]&pageSize=1000000`;
      const [upstreamList, localList] = await Promise.all([this.upstreamApi(list), this.localApi(list, { key: 'reader' })]);
      expect(upstreamList.status, JSON.stringify(upstreamList.body)).toBe(200);
      const localElements = localList.body.data.filter((r: { id: string }) => !localOnly.includes(r.id));
      expect(localElements.map((r: { id: string }) => r.id), `the ids of the ${output} list pages`).toEqual(upstreamList.body.data.map((r: { id: string }) => r.id));
      const pairs = upstreamList.body.data.map((shown: any, i: number) => seen(shown, localElements[i], shown.id));
      expect(
        pairs.map((p: any[]) => p[0]),
        `the ${output} list pages of both sides`,
      ).toEqual(pairs.map((p: any[]) => p[1]));
    }
  }

  /** The report as what the local side syncs with shows it. */
  async upstreamReport(id: string): Promise<any> {
    const answer = await this.upstreamApi(`/v2/labelReports/${encodeURIComponent(id)}`);
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    return answer.body;
  }

  /** The reports whose figures a desk does not yet keep as the vendor shows them (none against a LabelDesk remote). */
  private async figuresApart(ids: readonly string[]): Promise<Set<string>> {
    if (!this.vendor) return new Set();
    if (this.vendorOptions.figures) return new Set(ids);
    const apart = new Set<string>();
    for (const id of ids) {
      const full = await this.remoteReport(id);
      const humid = (full.reportedSenseData?.datapoints ?? []).some((p: { humidity?: number | null }) => p.humidity != null);
      if (humid || full.trimmedSenseData != null) apart.add(id);
    }
    return apart;
  }

  /** Stops the in-process worker and the local service; `reopenLocal` starts them again on the same file. */
  async closeLocal(): Promise<void> {
    await this.worker?.stop();
    this.worker = undefined;
    await this.local.close();
  }

  /** The local service again on its file, as after a restart (keys made before stay valid). */
  async reopenLocal(): Promise<void> {
    this.local = await startService({ dbFile: this.localDbFile, staticDir: join(this.dir, 'no-ui') });
  }

  /** Arguments naming this pair's local database, remote (through the proxy) and company. */
  commandArgs(command: 'sync' | 'serve', extra: string[] = []): string[] {
    const args = [command, '--db', this.localDbFile, '--remote', this.proxy.url, '--company', COMPANY];
    if (command === 'serve') args.push('--port', '0');
    return [...args, ...extra];
  }

  /** `labeldesk …` as a child process, the remote key in its environment. */
  spawnLocal(args: string[], env: Record<string, string> = {}): SpawnedLocal {
    const child = spawn(process.execPath, [join(REPO, 'bin/labeldesk.js'), ...args], {
      cwd: this.dir,
      env: { ...process.env, LABELDESK_DATA_DIR: join(this.dir, 'data'), LABELDESK_REMOTE_KEY: this.remoteKey, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    this.children.push(child);
    let stdout = '';
    let stderr = '';
    child.stdout!.on('data', (chunk) => (stdout += chunk));
    child.stderr!.on('data', (chunk) => (stderr += chunk));
    const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
      child.on('exit', (code, signal) => resolve({ code, signal })),
    );
    const outputMatching = (pattern: RegExp) =>
      new Promise<string>((resolve, reject) => {
        const check = () => {
          const text = stdout + stderr;
          if (!pattern.test(text)) return;
          child.stdout!.off('data', check);
          child.stderr!.off('data', check);
          resolve(text);
        };
        child.stdout!.on('data', check);
        child.stderr!.on('data', check);
        void exited.then((end) => reject(new Error(`labeldesk ${args[0]} ended (${JSON.stringify(end)}) before printing ${pattern}:\n${stdout}${stderr}`)));
        check();
      });
    return { child, stdout: () => stdout, stderr: () => stderr, outputMatching, exited };
  }

  /** `labeldesk sync --once` on the local database; resolves when it exits. */
  async syncOnce(extra: string[] = [], env: Record<string, string> = {}): Promise<{ code: number | null; stdout: string; stderr: string }> {
    const run = this.spawnLocal(this.commandArgs('sync', ['--once', ...extra]), env);
    const { code } = await run.exited;
    return { code, stdout: run.stdout(), stderr: run.stderr() };
  }

  async close(): Promise<void> {
    for (const child of this.children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    await Promise.all(this.children.map((child) => (child.exitCode === null && child.signalCode === null ? onceExited(child) : undefined)));
    await this.worker?.stop();
    await this.local.close();
    await this.proxy.close();
    await this.vendor?.close();
    if (this.ownsRemote) await this.remote.stop();
    rmSync(this.dir, { recursive: true, force: true });
  }
}

/** Runs `check` until it passes, a few milliseconds apart, for at most `timeoutMs`: vitest's own waiter, with room for a busy machine. */
export function eventually<T>(check: () => T | Promise<T>, timeoutMs = 20_000): Promise<T> {
  return vi.waitFor(check, { timeout: timeoutMs, interval: 10 });
}

async function request(base: string, path: string, key: string, init: RequestInit): Promise<Answer> {
  const headers: Record<string, string> = { 'x-api-key': key, ...init.headers };
  let body: string | undefined;
  if (init.body !== undefined) {
    body = typeof init.body === 'string' ? init.body : JSON.stringify(init.body);
    headers['content-type'] ??= 'application/json';
  }
  const res = await fetch(base + path, { method: init.method ?? 'GET', headers, body });
  const text = await res.text();
  let parsed: unknown = text;
  try {
    parsed = text === '' ? undefined : JSON.parse(text);
  } catch {
    // not JSON: keep the text
  }
  return { status: res.status, body: parsed, headers: res.headers };
}

function ids(answer: Answer): string[] {
  expect(answer.status, JSON.stringify(answer.body)).toBe(200);
  return answer.body.data.map((r: { id: string }) => r.id);
}

/**
 * The battery estimate (whole days) counts down with the clock of the moment each side answers:
 * two answers that straddle the turn of a day differ by one, so it is compared apart, to within one.
 */
function withoutClockFields(report: any): any {
  if (report?.label?.estimatedBatteryDaysLeft === undefined) return report;
  const { estimatedBatteryDaysLeft: _days, ...label } = report.label;
  return { ...report, label };
}

/**
 * `local` in the fields `shown` shows, at every depth (arrays element by element): what the
 * desk shows of what the vendor shows. A field the desk lacks stays missing, so the comparison
 * names it.
 */
export function projectOnto(local: any, shown: any): any {
  if (Array.isArray(shown)) return Array.isArray(local) ? local.map((l, i) => (i < shown.length ? projectOnto(l, shown[i]) : l)) : local;
  if (shown === null || typeof shown !== 'object' || local === null || typeof local !== 'object' || Array.isArray(local)) return local;
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(shown)) if (key in local) out[key] = projectOnto(local[key], shown[key]);
  return out;
}

function withoutFigures(report: any): any {
  if (report === null || typeof report !== 'object') return report;
  const { calculatedSenseData: _c, trimmedSenseData: _t, alert: _a, minimalSenseData: _m, ...rest } = report;
  return rest;
}

function onceExited(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => child.once('exit', () => resolve()));
}
