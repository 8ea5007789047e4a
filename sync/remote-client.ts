/**
 * The remote instance, over HTTP: the three /v2 operations sync uses and the /local/session
 * that tells a LabelDesk remote's company. Every failure is classified the way docs/sync.md#local-edits-and-push
 * treats it: `offline` (network, timeout, 5xx, 429, 408) is retried on the backoff timer
 * (those marked `transient` a few times inside the cycle first);
 * `paused` (401, or 403 for the key's permission) waits for another key or URL; `refused`
 * (400, 404, 409, 422, a role's 403, and other refusals) is the remote's final word on that
 * request.
 */
import { describeZodError } from '../contract/zod-messages';
import { ROLE_MESSAGES } from '../schema/report';
import { remotePageSchema, remoteSessionSchema, type RemoteReport } from '../schema/sync';
import { isRefused, readRemoteReport, type RefusedReport } from './remote-checks';
import type { LabelReportPatch } from '../schema/report';
import { HttpClient, HttpFailure, type HttpAnswer } from '../jobs/http-client';
import { parseRetryAfter } from '../jobs/retry-after';
import { JsonBudget } from '../jobs/json-budget';
import { WHOLE_REPORTS_PARAMETER } from '../query/list-query';

/** Connections kept open to the remote: the concurrent retrieves of a page, and the next page's list asked meanwhile. */
export const REMOTE_CONNECTIONS = 32;

export type FailureKind = 'offline' | 'paused' | 'refused';

export class RemoteFailure extends Error {
  constructor(
    readonly kind: FailureKind,
    message: string,
    /** The remote's status, when it answered. */
    readonly status?: number,
    readonly retryAfterMs?: number,
    /** A network error, a timeout, a 5xx, a 429 or a 408: the same request may pass if asked again. */
    readonly transient = false,
  ) {
    super(message);
    this.name = 'RemoteFailure';
  }
}

export interface RemotePage {
  data: unknown[];
  totalDocuments: number;
  /** The page's reports whole, when asked for and the remote is a LabelDesk that adds them (unread: each is checked as a retrieve is). */
  wholeReports?: unknown[];
}

/** The most bytes of whole reports asked for beside a page: a page stays one answer of moderate size whatever its reports carry. */
export const WHOLE_REPORTS_BYTES = 16 * 1024 * 1024;

/** The remote's operations a cycle uses. */
export type Remote = Pick<RemoteClient, 'session' | 'list' | 'retrieve' | 'patch'>;

const ROLE_REFUSALS: ReadonlySet<string> = new Set(Object.values(ROLE_MESSAGES));

export class RemoteClient {
  private readonly base: string;
  private readonly baseUrl: URL;
  private readonly http: HttpClient;
  /** The remote refused a list with the extension (a strict server): it is not asked for again. */
  private wholeReportsRefused = false;

  constructor(
    baseUrl: string,
    private readonly key: string,
    timeoutMs: number,
    /** The largest answer read; a larger one fails the request (docs/sync.md#reading-the-remote-strictly). */
    maxAnswerBytes?: number,
  ) {
    this.base = baseUrl.replace(/\/+$/, '');
    this.baseUrl = new URL(this.base);
    this.http = new HttpClient({ timeoutMs, maxSockets: REMOTE_CONNECTIONS, maxAnswerBytes });
  }

  /** Closes the connections kept open for the next requests. */
  close(): void {
    this.http.close();
  }

  /** The key's company, when the remote is a LabelDesk (else null: it has no /local/session). */
  async session(): Promise<{ companyId: string; companyName: string } | null> {
    const answer = await this.request('GET', '/local/session', undefined, [404]);
    if (answer.status === 404) return null;
    const parsed = remoteSessionSchema.safeParse(answer.body);
    return parsed.success ? parsed.data : null;
  }

  /**
   * One page of the list; every value a string, as the query string carries it. With
   * `wholeReports`, the page's reports are asked for whole beside it (a LabelDesk extension,
   * within half the answer cap): a remote that ignores the parameter answers the page alone,
   * one that refuses it (400) is asked again without it, and not asked for it again.
   */
  async list(query: Record<string, string>, options: { wholeReports?: boolean } = {}): Promise<RemotePage> {
    if (!options.wholeReports || this.wholeReportsRefused) return this.listPage(query);
    const bytes = Math.min(WHOLE_REPORTS_BYTES, Math.floor(this.http.maxAnswerBytes / 2));
    try {
      return await this.listPage({ ...query, [WHOLE_REPORTS_PARAMETER]: String(bytes) });
    } catch (err) {
      if (!(err instanceof RemoteFailure) || err.status !== 400) throw err;
      this.wholeReportsRefused = true;
      return this.listPage(query);
    }
  }

  private async listPage(query: Record<string, string>): Promise<RemotePage> {
    const answer = await this.request('GET', `/v2/labelReports?${new URLSearchParams(query)}`);
    const parsed = remotePageSchema.safeParse(answer.body);
    if (!parsed.success) throw this.unreadable('the list', describeZodError(parsed.error));
    // More elements than asked for is no page of this list; checked before any element is read.
    const asked = Number(query.pageSize);
    const { data, wholeReports } = parsed.data;
    if (data.length > asked) throw this.unreadable('the list', `it holds ${data.length} reports for a page of ${asked}`);
    if (wholeReports && wholeReports.length > data.length) throw this.unreadable('the list', `it holds ${wholeReports.length} whole reports for a page of ${data.length}`);
    // Asked for or not, whole reports count only when asked for.
    return WHOLE_REPORTS_PARAMETER in query ? parsed.data : { data, totalDocuments: parsed.data.totalDocuments };
  }

  /**
   * The whole report; null when the remote does not show it (404); the reason when its answer
   * is not that report (another shape, or another report's id): one bad report is refused on
   * its own, the rest of the page goes on.
   */
  async retrieve(id: string): Promise<RemoteReport | RefusedReport | null> {
    let answer: { status: number; body: unknown };
    try {
      answer = await this.request('GET', `/v2/labelReports/${encodeURIComponent(id)}`, undefined, [404]);
    } catch (err) {
      // One report built to exhaust memory is refused on its own; asking again gives the same.
      if (err instanceof OverBudget) return { id, reason: err.message };
      throw err;
    }
    if (answer.status === 404) return null;
    return readRemoteReport(id, answer.body);
  }

  /**
   * Sends one PATCH. Resolves with the report the remote answered, or null when its answer is
   * not the whole report asked about (the interface promises only some of its fields).
   */
  async patch(id: string, body: LabelReportPatch): Promise<RemoteReport | null> {
    const answer = await this.request('PATCH', `/v2/labelReports/${encodeURIComponent(id)}`, body);
    const report = readRemoteReport(id, answer.body);
    return isRefused(report) ? null : report;
  }

  private async request(method: string, path: string, body?: unknown, accept: readonly number[] = []): Promise<{ status: number; body: unknown }> {
    const headers: Record<string, string> = { 'x-api-key': this.key, accept: 'application/json' };
    if (body !== undefined) headers['content-type'] = 'application/json';
    let answer: HttpAnswer;
    try {
      // `path` carries its query, after the base URL's own path.
      const url = new URL(this.baseUrl.pathname.replace(/\/+$/, '') + path, this.baseUrl);
      const budget = new JsonBudget(this.http.maxAnswerBytes);
      answer = await this.http.request({
        url,
        method,
        headers,
        body: body === undefined ? undefined : JSON.stringify(body),
        inspect: (chunk) => budget.feed(chunk),
      });
    } catch (err) {
      if (!(err instanceof HttpFailure)) throw err;
      if (err.kind === 'shape') throw new OverBudget(`the answer to ${method} ${path.split('?')[0]} from ${this.base} was cut off: ${err.message}`);
      const what = err.brokeOff ? `the answer from ${this.base} broke off` : `cannot reach ${this.base}`;
      // An answer past the cap will not shrink by asking again at once: that goes to the cycle's backoff.
      throw new RemoteFailure('offline', `${what}: ${networkMessage(err)}`, undefined, undefined, err.kind !== 'too-large');
    }
    const { status } = answer;
    const text = answer.body.toString('utf8');
    // The bytes are not needed once they are text: a large answer should not be held twice while it is parsed.
    answer.body = Buffer.alloc(0);
    const json = parseJson(text);
    if ((status >= 200 && status < 300) || accept.includes(status)) {
      if (json === undefined && status !== 404) throw this.unreadable(`the answer to ${method} ${path.split('?')[0]}`, 'it is not JSON');
      return { status, body: json };
    }
    const said = remoteMessage(json) ?? `HTTP ${status}`;
    const retryAfterMs = parseRetryAfter(answer.headers['retry-after'], Date.now());
    if (status >= 500 || status === 429 || status === 408) {
      throw new RemoteFailure('offline', `the remote answered ${status}: ${said}`, status, retryAfterMs, true);
    }
    if (status === 401) throw new RemoteFailure('paused', `the remote refused the key (401): ${said}`, status);
    if (status === 403 && !isRoleRefusal(json)) {
      throw new RemoteFailure('paused', `the remote key may not do this (403): ${said}`, status);
    }
    if (status >= 300 && status < 400) {
      throw new RemoteFailure('offline', `the remote answered ${status} (a redirect to ${headerValue(answer.headers.location) ?? 'nowhere'}); check the remote URL`, status);
    }
    throw new RemoteFailure('refused', said, status);
  }

  private unreadable(what: string, why: string): RemoteFailure {
    return new RemoteFailure('offline', `${what} from ${this.base} is not what the label report interface answers: ${why}`);
  }
}

/** An answer whose JSON would cost far more memory parsed than its size says (jobs/json-budget.ts). */
export class OverBudget extends RemoteFailure {
  constructor(message: string) {
    super('offline', message);
  }
}

/** A 403 for a role, by its code or by one of the two role messages of docs/api.md#errors; any other 403 is about the key. */
export function isRoleRefusal(body: unknown): boolean {
  if (body === null || typeof body !== 'object') return false;
  const { code, message } = body as { code?: unknown; message?: unknown };
  return code === 'ROLE_FORBIDDEN' || (typeof message === 'string' && ROLE_REFUSALS.has(message));
}

function remoteMessage(body: unknown): string | undefined {
  if (body === null || typeof body !== 'object') return undefined;
  const { message } = body as { message?: unknown };
  return typeof message === 'string' && message !== '' ? message : undefined;
}

function parseJson(text: string): unknown {
  if (text === '') return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

function headerValue(value: string | string[] | undefined): string | null {
  return (Array.isArray(value) ? value[0] : value) ?? null;
}

function networkMessage(failure: HttpFailure): string {
  const code = (failure.cause as NodeJS.ErrnoException | undefined)?.code;
  if (code === 'ECONNREFUSED') return 'the connection was refused (is it running?)';
  if (code === 'ENOTFOUND') return 'no such host';
  if (code === 'ECONNRESET' || failure.message === 'socket hang up') return 'the connection was reset';
  return failure.message;
}
