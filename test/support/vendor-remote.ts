/**
 * A remote shaped like the vendor's cloud: a real HTTP server on 127.0.0.1 in front of a
 * LabelDesk remote (or any base URL serving `/v2`), answering only what the interface
 * promises (docs/api.md). A desk that syncs against it meets the interface and nothing more:
 *
 * - only `GET /v2/labelReports`, `GET /v2/labelReports/:id` and `PATCH /v2/labelReports/:id`
 *   exist; every other route (`/local/session` among them) is a 404 like an unknown route;
 * - each answer keeps exactly the fields the interface names for its output (retrieve: 2.1;
 *   list `normal`: 2.1 with `label` reduced to uid and sequenceCode; list `minimal`: the
 *   reduced element of 4.1; PATCH: the full shape, or only the fields 4.3 says it shows at
 *   least), so no `reportedSenseData`, no humidity in any datapoint, in `attainedValues` or in
 *   `analysedValues`, and no extension field;
 * - the fields whose types the interface does not show (user, labelPreset, alertsConfig) are
 *   kept, null or missing as `notShown` says, per report and field, deterministically;
 * - `figures` lets a test make the remote's figures differ from what docs/figures.md
 *   would compute: it gets each full report as the vendor would answer it and returns the report
 *   to answer instead (meant for calculatedSenseData, trimmedSenseData and alert); the list's
 *   `minimalSenseData` counters and `alert` follow the transformed figures, as the vendor's
 *   would.
 *
 * Requests are forwarded with the caller's key (header or query) and body as they came. Error
 * answers pass through unchanged: their shape is not shown, and a desk reads only status and
 * message. Answers are read with a size cap and a deadline, so a stuck or runaway target fails
 * the request instead of hanging the test.
 */
import { once } from 'node:events';
import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

/** The fields of a report whose types and inner fields the interface does not show. */
export const NOT_SHOWN_FIELDS = ['user', 'labelPreset', 'alertsConfig'] as const;
export type NotShownField = (typeof NOT_SHOWN_FIELDS)[number];

/**
 * How a not-shown field appears: as the wrapped remote has it, null, or missing. `mixed` picks
 * one of the three per report and field from a hash of the two, so a run sees all three and the
 * next run sees the same.
 */
export type NotShownMode = 'keep' | 'null' | 'missing' | 'mixed';

/** What a PATCH answers: the full report, or only the fields 4.3 says it shows at least. */
export type PatchAnswer = 'full' | 'least';

/** A report as the vendor answers it: JSON, shaped by the interface. */
export type VendorReport = Record<string, any>;

export interface VendorRemoteOptions {
  /** How user, labelPreset and alertsConfig appear; one mode for all or one per field (default `keep`). */
  notShown?: NotShownMode | Partial<Record<NotShownField, NotShownMode>>;
  /** What a PATCH answers (default `full`). */
  patchAnswer?: PatchAnswer;
  /**
   * The remote's own figures: called with every full report before it is answered (retrieve,
   * list `normal`, PATCH, and behind list `minimal`), returns the report to answer. Must not
   * change `id` or `updated`. Keep it a pure function of the report: the same report is
   * transformed again at each answer.
   */
  figures?: (report: VendorReport) => VendorReport;
  /** The largest answer read from the target, in bytes (default 64 MiB). */
  maxAnswerBytes?: number;
  /** How long an answer from the target may take, in milliseconds (default 60 s). */
  answerTimeoutMs?: number;
}

const COMPANY_FIELDS = ['id', 'name', 'shortCode'];
const FULL_LABEL_FIELDS = ['uid', 'sequenceCode', 'type', 'name', 'firmwareVersionInfo', 'estimatedBatteryDaysLeft'];
const LIST_LABEL_FIELDS = ['uid', 'sequenceCode'];
const FIRMWARE_FIELDS = ['firmwareVersion', 'firmwareApiVersion'];
const SENSE_CONFIG_FIELDS = ['limits', 'interval', 'configTime', 'startDelay', 'runningTime'];
const LIMIT_FIELDS = ['minTemperature', 'maxTemperature', 'minHumidity', 'maxHumidity'];
const SENSE_DATA_FIELDS = [
  'datapoints',
  'numberOfDatapointsAvailable',
  'numberOfDatapointsRead',
  'numberOfMeasurementsOccurred',
  'attainedValues',
  'startTime',
  'elapsedTime',
  'elapsedTimeFromConfig',
  'preciseElapsedTime',
  'preciseElapsedTimeFromConfig',
  'preciseInterval',
  'currentTime',
  'startDelay',
  'numberOfViolations',
  'durationOfViolations',
  'analysedValues',
];
const DATAPOINT_FIELDS = ['timestamp', 'temperature'];
const ATTAINED_FIELDS = ['minTemperature', 'maxTemperature'];
const VIOLATION_FIELDS = ['temperature', 'humidity', 'all'];
const ANALYSED_FIELDS = ['average', 'degreeHour', 'meanKineticTemperature'];
const ALERT_FIELDS = ['level', 'timestamp'];
const ACCESS_FIELDS = ['id', 'companyId', 'labelReportId', 'role'];
const MINIMAL_SENSE_FIELDS = ['flattenedDatapoints', 'numberOfDatapointsAvailable', 'numberOfDatapointsRead', 'numberOfMeasurementsOccurred', 'numberOfViolations'];
/** 2.1 in table order, then the fields it names as also carried (reportedSenseData is left out). */
const FULL_FIELDS = [
  'id',
  'created',
  'updated',
  'company',
  'subCompany',
  'label',
  'mode',
  'type',
  'status',
  'labelReference',
  'senseConfig',
  'hasFlag',
  'isArchived',
  'numberOfTaps',
  'dataIsIncomplete',
  'calculatedSenseData',
  'alert',
  'customFields',
  'access',
  'user',
  'labelPreset',
  'alertsConfig',
  'trimmedSenseData',
];
const MINIMAL_FIELDS = [
  'id',
  'created',
  'updated',
  'company',
  'subCompany',
  'label',
  'mode',
  'type',
  'status',
  'labelReference',
  'senseConfig',
  'hasFlag',
  'isArchived',
  'numberOfTaps',
  'minimalSenseData',
  'alert',
];
/** What 4.3 says a PATCH answer shows at least. */
const PATCH_LEAST_FIELDS = ['id', 'created', 'updated', 'labelReference', 'status', 'hasFlag', 'isArchived', 'senseConfig', 'alert', 'access'];

/** The keys of `value` named in `fields`, in that order; anything that is not an object as it is. */
function pick(value: unknown, fields: readonly string[], inner: Record<string, (v: any) => unknown> = {}): any {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return value;
  const out: Record<string, unknown> = {};
  for (const field of fields) {
    if (!(field in value)) continue;
    const v = (value as Record<string, unknown>)[field];
    out[field] = inner[field] ? inner[field](v) : v;
  }
  return out;
}

function each(value: unknown, shape: (v: any) => unknown): unknown {
  return Array.isArray(value) ? value.map(shape) : value;
}

function senseData(value: unknown): unknown {
  return pick(value, SENSE_DATA_FIELDS, {
    datapoints: (d) => each(d, (p) => pick(p, DATAPOINT_FIELDS)),
    attainedValues: (a) => pick(a, ATTAINED_FIELDS),
    numberOfViolations: (n) => pick(n, VIOLATION_FIELDS),
    durationOfViolations: (n) => pick(n, VIOLATION_FIELDS),
    analysedValues: (a) => pick(a, ['temperature'], { temperature: (t) => pick(t, ANALYSED_FIELDS) }),
  });
}

const senseConfig = (c: unknown) => pick(c, SENSE_CONFIG_FIELDS, { limits: (l) => pick(l, LIMIT_FIELDS) });
const company = (c: unknown) => pick(c, COMPANY_FIELDS);
const alert = (a: unknown) => pick(a, ALERT_FIELDS);
const access = (a: unknown) => each(a, (e) => pick(e, ACCESS_FIELDS));

/** 32-bit FNV-1a: a stable choice per report and field, the same in every run. */
function hash(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h;
}

/** The mode a not-shown field of a report gets under `options.notShown`. */
export function notShownMode(options: VendorRemoteOptions['notShown'], reportId: string, field: NotShownField): Exclude<NotShownMode, 'mixed'> {
  const mode = (typeof options === 'object' ? options[field] : options) ?? 'keep';
  if (mode !== 'mixed') return mode;
  return (['keep', 'null', 'missing'] as const)[hash(`${reportId}\u0000${field}`) % 3];
}

/** A full report (retrieve, list `normal` with `labelFields` reduced, PATCH `full`) as the vendor answers it. */
export function vendorFullReport(report: VendorReport, options: VendorRemoteOptions = {}, labelFields: readonly string[] = FULL_LABEL_FIELDS): VendorReport {
  const out = pick(report, FULL_FIELDS, {
    company,
    label: (l) => pick(l, labelFields, { firmwareVersionInfo: (f) => pick(f, FIRMWARE_FIELDS) }),
    senseConfig,
    calculatedSenseData: senseData,
    trimmedSenseData: senseData,
    alert,
    access,
  });
  for (const field of NOT_SHOWN_FIELDS) {
    const mode = notShownMode(options.notShown, String(report.id), field);
    if (mode === 'null' && field in out) out[field] = null;
    if (mode === 'missing') delete out[field];
  }
  return out;
}

/**
 * A list `minimal` element as the vendor answers it. With `full` (the same report's full
 * shape after `figures`) its counters and alert are those of the full report's figures: the
 * trimmed ones when there are, else the calculated ones.
 */
export function vendorMinimalElement(element: VendorReport, full?: VendorReport): VendorReport {
  const out = pick(element, MINIMAL_FIELDS, {
    company,
    label: (l) => pick(l, LIST_LABEL_FIELDS),
    senseConfig,
    minimalSenseData: (m) => pick(m, MINIMAL_SENSE_FIELDS, { numberOfViolations: (n) => pick(n, VIOLATION_FIELDS) }),
    alert,
  });
  if (full) {
    const figures = full.trimmedSenseData ?? full.calculatedSenseData;
    if (figures && out.minimalSenseData) {
      out.minimalSenseData = {
        ...out.minimalSenseData,
        numberOfDatapointsAvailable: figures.numberOfDatapointsAvailable,
        numberOfDatapointsRead: figures.numberOfDatapointsRead,
        numberOfMeasurementsOccurred: figures.numberOfMeasurementsOccurred,
        numberOfViolations: pick(figures.numberOfViolations, VIOLATION_FIELDS),
      };
    }
    if ('alert' in full) out.alert = alert(full.alert);
  }
  return out;
}

interface TargetAnswer {
  status: number;
  headers: Record<string, string>;
  body: Buffer;
}

export class VendorRemote {
  /** Every request the vendor remote answered: method, path with query, status. */
  readonly requests: { method: string; path: string; status: number }[] = [];
  private readonly sockets = new Set<Socket>();
  private readonly inFlight = new Set<AbortController>();

  private constructor(
    private readonly server: http.Server,
    readonly url: string,
    private readonly target: string,
    private readonly opts: VendorRemoteOptions,
  ) {}

  /** Starts on 127.0.0.1, port 0, in front of `targetUrl` (no trailing slash needed). */
  static async start(targetUrl: string, options: VendorRemoteOptions = {}): Promise<VendorRemote> {
    let self: VendorRemote | undefined;
    const server = http.createServer((req, res) => void self!.handle(req, res));
    server.on('connection', (socket: Socket) => {
      self?.sockets.add(socket);
      socket.on('close', () => self?.sockets.delete(socket));
    });
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    const { port } = server.address() as AddressInfo;
    self = new VendorRemote(server, `http://127.0.0.1:${port}`, targetUrl.replace(/\/+$/, ''), options);
    return self;
  }

  async close(): Promise<void> {
    for (const controller of this.inFlight) controller.abort();
    const closed = new Promise<void>((resolve) => this.server.close(() => resolve()));
    for (const socket of this.sockets) socket.destroy();
    await closed;
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const method = req.method ?? 'GET';
    const path = req.url ?? '/';
    const reply = (status: number, body: unknown, headers: Record<string, string> = {}) => {
      this.requests.push({ method, path, status });
      if (res.destroyed) return;
      const text = typeof body === 'string' || Buffer.isBuffer(body) ? body : JSON.stringify(body);
      res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', ...headers, 'content-length': String(Buffer.byteLength(text)) });
      res.end(text);
    };
    try {
      const requestBody = await readCapped(req, this.opts.maxAnswerBytes ?? 64 * 1024 * 1024);
      const url = new URL(path, 'http://vendor.invalid');
      const one = /^\/v2\/labelReports\/([^/]+)$/.exec(url.pathname);
      if (method === 'GET' && url.pathname === '/v2/labelReports') {
        const answer = await this.list(req, url);
        return reply(answer.status, answer.body, passHeaders(answer.headers));
      }
      if ((method === 'GET' || method === 'PATCH') && one) {
        const answer = await this.forward(method, path, req, requestBody);
        if (answer.status !== 200) return reply(answer.status, answer.body, passHeaders(answer.headers));
        let report = this.full(JSON.parse(answer.body.toString('utf8')));
        if (method === 'PATCH' && (this.opts.patchAnswer ?? 'full') === 'least') report = pick(report, PATCH_LEAST_FIELDS);
        return reply(200, report, passHeaders(answer.headers));
      }
      return reply(404, { statusCode: 404, error: 'Not Found', message: `Route ${method}:${url.pathname} not found` });
    } catch (err) {
      // The target could not be read (unreachable, cut, too big, too slow): the vendor's gateway answers 502.
      return reply(502, { statusCode: 502, error: 'Bad Gateway', message: String((err as Error)?.message ?? err) });
    }
  }

  private full(report: VendorReport, labelFields?: readonly string[]): VendorReport {
    const shaped = vendorFullReport(report, this.opts, labelFields);
    return this.opts.figures ? this.opts.figures(shaped) : shaped;
  }

  private async list(req: IncomingMessage, url: URL): Promise<TargetAnswer> {
    const output = url.searchParams.get('output') === 'minimal' ? 'minimal' : 'normal';
    const path = url.pathname + url.search;
    const answer = await this.forward('GET', path, req);
    if (answer.status !== 200) return answer;
    const page = JSON.parse(answer.body.toString('utf8'));
    let data: VendorReport[];
    if (output === 'normal') {
      data = page.data.map((r: VendorReport) => this.full(r, LIST_LABEL_FIELDS));
    } else if (!this.opts.figures) {
      data = page.data.map((r: VendorReport) => vendorMinimalElement(r));
    } else {
      // The same page in full, so the counters follow the transformed figures.
      const normal = new URL(url);
      normal.searchParams.set('output', 'normal');
      const fullAnswer = await this.forward('GET', normal.pathname + normal.search, req);
      if (fullAnswer.status !== 200) return fullAnswer;
      const byId = new Map<string, VendorReport>(JSON.parse(fullAnswer.body.toString('utf8')).data.map((r: VendorReport) => [r.id, r]));
      data = page.data.map((r: VendorReport) => {
        const full = byId.get(r.id);
        return vendorMinimalElement(r, full && this.full(full, LIST_LABEL_FIELDS));
      });
    }
    const body = Buffer.from(JSON.stringify({ data, totalDocuments: page.totalDocuments }));
    return { ...answer, body };
  }

  /** The request to the target, with the caller's key and body; the answer read whole, capped and in time. */
  private async forward(method: string, path: string, req: IncomingMessage, body?: Buffer): Promise<TargetAnswer> {
    const headers: Record<string, string> = {};
    for (const name of ['x-api-key', 'content-type', 'accept']) {
      const value = req.headers[name];
      if (typeof value === 'string') headers[name] = value;
    }
    const controller = new AbortController();
    this.inFlight.add(controller);
    const timer = setTimeout(() => controller.abort(new Error(`no answer from ${this.target} within ${this.opts.answerTimeoutMs ?? 60_000} ms`)), this.opts.answerTimeoutMs ?? 60_000);
    try {
      const res = await fetch(this.target + path, {
        method,
        headers,
        body: method === 'GET' || method === 'HEAD' || !body || body.length === 0 ? undefined : new Uint8Array(body),
        signal: controller.signal,
      });
      const limit = this.opts.maxAnswerBytes ?? 64 * 1024 * 1024;
      const chunks: Buffer[] = [];
      let size = 0;
      const reader = res.body?.getReader();
      for (let read = await reader?.read(); reader && read && !read.done; read = await reader.read()) {
        const chunk = read.value;
        size += chunk.length;
        if (size > limit) {
          await reader.cancel();
          throw new Error(`answer of ${method} ${path} over ${limit} bytes`);
        }
        chunks.push(Buffer.from(chunk));
      }
      const out: Record<string, string> = {};
      res.headers.forEach((value, name) => (out[name] = value));
      return { status: res.status, headers: out, body: Buffer.concat(chunks) };
    } finally {
      clearTimeout(timer);
      this.inFlight.delete(controller);
    }
  }
}

/** The answer headers a client may read (Retry-After for 429/503); length and encoding are the vendor's own. */
function passHeaders(headers: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  if (headers['retry-after']) out['retry-after'] = headers['retry-after'];
  return out;
}

function readCapped(req: IncomingMessage, limit: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) {
        req.destroy();
        reject(new Error(`request body over ${limit} bytes`));
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
    req.on('close', () => reject(new Error('request closed before its end')));
  });
}
