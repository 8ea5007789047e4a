/**
 * A real HTTP proxy on 127.0.0.1 in front of another service, for tests of a client that must
 * survive a bad network: it forwards every request unchanged (the Host header rewritten to the
 * target's, as the target guards it) and injects faults the test programs, request by request.
 *
 * - `failEvery(n, fault)`: every n-th matching request fails; `failNext(count, fault)`: the next
 *   `count` matching requests fail in a row.
 * - Faults: `reset` (the connection is cut, nothing forwarded), `status` (an answer such as a 503
 *   with `Retry-After`, nothing forwarded), `drop-response` (forwarded, applied by the target, its
 *   answer lost as the connection is cut), `delay` (forwarded late).
 * - `offline('refuse')` stops listening (connections are refused) and `offline('reset')` cuts
 *   every connection as it opens; `online()` serves again on the same port.
 * - `hold(match, stage)`: the next matching request waits, before it is forwarded (`request`)
 *   or after its answer arrived from the target (`response`), until the test releases or drops
 *   it: a point to act at (kill a process, edit the other side) known exactly.
 * - `requests`: every request seen, with what became of it; `count(match)` and `waitFor(match, n)`.
 * - `ignoreQueryParameter(name)`: the parameter is left out of what is forwarded, so the target
 *   answers as a server that does not know it (the log keeps the request as sent).
 *
 * Nothing it starts outlives `close()`: delays are timers it clears, held requests are cut.
 */
import { once } from 'node:events';
import http, { type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

/** Which requests a rule applies to: method and path (with the query) as the client sent them. */
export interface Match {
  method?: string;
  path?: string | RegExp;
}

export type Fault =
  | { kind: 'reset' }
  | { kind: 'status'; status: number; headers?: Record<string, string>; body?: unknown }
  | { kind: 'drop-response' }
  | { kind: 'delay'; ms: number };

export type Stage = 'request' | 'response';

/** What became of a request: still in flight, answered with a status, or cut with a reason. */
export type Outcome =
  | { kind: 'pending' }
  | { kind: 'answered'; status: number; injected: boolean }
  | { kind: 'cut'; reason: 'reset' | 'drop-response' | 'offline' | 'held-and-dropped' | 'target-unreachable' | 'proxy-closed' };

export interface ProxiedRequest {
  index: number;
  method: string;
  /** Path and query, as sent. */
  path: string;
  /** The body as text (requests of a sync client are small). */
  body: string;
  /** When it arrived whole, in milliseconds since the epoch. */
  at: number;
  outcome: Outcome;
}

export interface Rule {
  /** Stops the rule; requests it has already chosen still get their fault. */
  remove(): void;
  /** How many requests the rule has given its fault so far. */
  readonly fired: number;
}

export interface Hold {
  /** Resolves with the request once it is held (at its stage). */
  readonly arrived: Promise<ProxiedRequest>;
  /** Lets it go on: forwarded (stage `request`) or answered (stage `response`). */
  release(): void;
  /** Cuts its connection instead: never forwarded (`request`), or forwarded and its answer lost (`response`). */
  drop(): void;
}

interface RuleState {
  match: Match;
  fault: Fault;
  /** Decides per matching request (counted from 1) whether it fails. */
  fires(nth: number): boolean;
  seen: number;
  fired: number;
  removed: boolean;
}

interface HoldState {
  match: Match;
  stage: Stage;
  /** Matching requests still to let pass before the one held. */
  skip: number;
  taken: boolean;
  request?: ProxiedRequest;
  arrived: (request: ProxiedRequest) => void;
  decided: Promise<'release' | 'drop'>;
  decide: (decision: 'release' | 'drop') => void;
}

interface Waiter {
  match: Match;
  count: number;
  resolve: (requests: ProxiedRequest[]) => void;
}

const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'transfer-encoding', 'proxy-connection', 'upgrade', 'te', 'trailer']);

export class FaultProxy {
  readonly requests: ProxiedRequest[] = [];
  private rules: RuleState[] = [];
  private holds: HoldState[] = [];
  private waiters: Waiter[] = [];
  private readonly sockets = new Set<Socket>();
  private readonly timers = new Set<NodeJS.Timeout>();
  private readonly agent = new http.Agent({ keepAlive: true });
  private mode: 'online' | 'refuse' | 'reset' = 'online';
  private latencyMs = 0;
  private closed = false;
  private readonly ignored = new Set<string>();

  private constructor(
    private readonly server: http.Server,
    readonly port: number,
    private readonly target: URL,
  ) {}

  /** A proxy to `targetUrl` (an http:// origin), listening on 127.0.0.1 on a free port. */
  static async start(targetUrl: string): Promise<FaultProxy> {
    let proxy: FaultProxy | undefined;
    const server = http.createServer((req, res) => void proxy!.handle(req, res));
    server.on('connection', (socket: Socket) => proxy!.accept(socket));
    // A client that cuts its own connection mid-request is no failure of the proxy.
    server.on('clientError', (_err, socket) => socket.destroy());
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    proxy = new FaultProxy(server, (server.address() as AddressInfo).port, new URL(targetUrl));
    return proxy;
  }

  get url(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  /**
   * Every `n`-th matching request from now on gets `fault`: the `first`-th (n by default), then
   * every n-th after it; two rules with different `first` make alternating faults.
   */
  failEvery(n: number, fault: Fault, match: Match = {}, first = n): Rule {
    return this.addRule(match, fault, (nth) => nth >= first && (nth - first) % n === 0);
  }

  /** The next `count` matching requests get `fault`, one after another. */
  failNext(count: number, fault: Fault, match: Match = {}): Rule {
    return this.addRule(match, fault, (nth) => nth <= count);
  }

  /** Every matching request from now on gets `fault`. */
  failAll(fault: Fault, match: Match = {}): Rule {
    return this.addRule(match, fault, () => true);
  }

  /**
   * The `nth` matching request from now on (the next one by default) waits at `stage` until
   * released or dropped; the ones before it pass.
   */
  hold(match: Match, stage: Stage = 'request', nth = 1): Hold {
    let arrived!: (request: ProxiedRequest) => void;
    let decide!: (decision: 'release' | 'drop') => void;
    const arrival = new Promise<ProxiedRequest>((resolve) => (arrived = resolve));
    const decided = new Promise<'release' | 'drop'>((resolve) => (decide = resolve));
    const state: HoldState = { match, stage, skip: nth - 1, taken: false, arrived, decided, decide };
    this.holds.push(state);
    return {
      arrived: arrival,
      release: () => decide('release'),
      drop: () => decide('drop'),
    };
  }

  /** Added before each forwarded request; 0 removes it. */
  setLatency(ms: number): void {
    this.latencyMs = ms;
  }

  /** Delays (latency or `delay` faults) whose timer is still set. */
  get pendingDelays(): number {
    return this.timers.size;
  }

  /**
   * The target becomes unreachable: `refuse` stops listening, so connections are refused;
   * `reset` accepts connections and cuts them at once. Open connections are cut either way.
   */
  async offline(how: 'refuse' | 'reset' = 'refuse'): Promise<void> {
    this.mode = how;
    for (const socket of this.sockets) socket.destroy();
    if (how === 'refuse' && this.server.listening) {
      const closing = once(this.server, 'close');
      this.server.close();
      await closing;
    }
  }

  /** Serves again, on the same port. */
  async online(): Promise<void> {
    if (!this.server.listening) {
      this.server.listen(this.port, '127.0.0.1');
      await once(this.server, 'listening');
    }
    this.mode = 'online';
  }

  /** How many requests matching `match` arrived so far (faulted ones included). */
  count(match: Match = {}): number {
    return this.requests.filter((r) => matches(match, r)).length;
  }

  /** The requests matching `match`, in arrival order. */
  seen(match: Match = {}): ProxiedRequest[] {
    return this.requests.filter((r) => matches(match, r));
  }

  /** Resolves once `count` requests matching `match` have arrived in all. */
  waitFor(match: Match, count = 1): Promise<ProxiedRequest[]> {
    return new Promise((resolve) => {
      this.waiters.push({ match, count, resolve });
      this.notify();
    });
  }

  /** Forgets the requests seen so far (counts start again from zero). */
  clearLog(): void {
    this.requests.length = 0;
  }

  /** Removes every rule, hold and the latency; stays online. */
  async heal(): Promise<void> {
    for (const rule of this.rules) rule.removed = true;
    this.rules = [];
    for (const hold of this.holds) hold.decide('release');
    this.holds = [];
    this.latencyMs = 0;
    await this.online();
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
    for (const hold of this.holds) hold.decide('drop');
    for (const socket of this.sockets) socket.destroy();
    this.agent.destroy();
    if (this.server.listening) {
      const closing = once(this.server, 'close');
      this.server.close();
      await closing;
    }
  }

  private addRule(match: Match, fault: Fault, fires: (nth: number) => boolean): Rule {
    const state: RuleState = { match, fault, fires, seen: 0, fired: 0, removed: false };
    this.rules.push(state);
    return {
      remove: () => {
        state.removed = true;
        this.rules = this.rules.filter((r) => r !== state);
      },
      get fired() {
        return state.fired;
      },
    };
  }

  private accept(socket: Socket): void {
    if (this.mode !== 'online' || this.closed) {
      socket.resetAndDestroy();
      return;
    }
    this.sockets.add(socket);
    socket.on('close', () => this.sockets.delete(socket));
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks);
    const request: ProxiedRequest = {
      index: this.requests.length,
      method: req.method ?? 'GET',
      path: req.url ?? '/',
      body: body.toString('utf8'),
      at: Date.now(),
      outcome: { kind: 'pending' },
    };
    this.requests.push(request);
    this.notify();
    const socket = req.socket;
    const cut = (reason: Extract<Outcome, { kind: 'cut' }>['reason']) => {
      request.outcome = { kind: 'cut', reason };
      if (!socket.destroyed) socket.resetAndDestroy();
    };
    if (this.mode !== 'online') return cut('offline');

    const fault = this.faultFor(request);
    const hold = this.holdFor(request);
    if (fault?.kind === 'reset') return cut('reset');
    if (fault?.kind === 'status') {
      request.outcome = { kind: 'answered', status: fault.status, injected: true };
      const text = JSON.stringify(fault.body ?? injectedError(fault.status));
      res.writeHead(fault.status, { 'content-type': 'application/json', ...fault.headers }).end(text);
      return;
    }
    if (hold?.stage === 'request') {
      hold.arrived(request);
      if ((await hold.decided) === 'drop') return cut('held-and-dropped');
    }
    const delay = (fault?.kind === 'delay' ? fault.ms : 0) + this.latencyMs;
    if (delay > 0) await this.sleep(delay);
    if (this.closed) return cut('proxy-closed');

    let answer: { status: number; headers: IncomingHttpHeaders; body: Buffer };
    try {
      answer = await this.forward(req, body);
    } catch {
      return cut('target-unreachable');
    }
    if (fault?.kind === 'drop-response') return cut('drop-response');
    if (hold?.stage === 'response') {
      hold.arrived(request);
      if ((await hold.decided) === 'drop') return cut('held-and-dropped');
    }
    if (socket.destroyed) return cut('proxy-closed');
    request.outcome = { kind: 'answered', status: answer.status, injected: false };
    const headers = Object.fromEntries(Object.entries(answer.headers).filter(([name]) => !HOP_BY_HOP.has(name)));
    res.writeHead(answer.status, { ...headers, 'content-length': String(answer.body.length) }).end(answer.body);
  }

  /** The fault of the first rule that fires for this request, counting it for every rule that matches. */
  private faultFor(request: ProxiedRequest): Fault | undefined {
    let chosen: Fault | undefined;
    for (const rule of this.rules) {
      if (rule.removed || !matches(rule.match, request)) continue;
      rule.seen += 1;
      if (chosen === undefined && rule.fires(rule.seen)) {
        rule.fired += 1;
        chosen = rule.fault;
      }
    }
    return chosen;
  }

  private holdFor(request: ProxiedRequest): HoldState | undefined {
    // Every waiting hold counts the request; the first whose turn it is takes it.
    let hold: HoldState | undefined;
    for (const h of this.holds) {
      if (h.taken || !matches(h.match, request)) continue;
      if (h.skip > 0) h.skip -= 1;
      else hold ??= h;
    }
    if (!hold) return undefined;
    hold.taken = true;
    hold.request = request;
    this.holds = this.holds.filter((h) => h !== hold);
    return hold;
  }

  /** From now on `name` is left out of every request's query before it is forwarded. */
  ignoreQueryParameter(name: string): void {
    this.ignored.add(name);
  }

  /** The path and query forwarded: the ignored parameters left out. */
  private forwardedPath(path: string): string {
    if (this.ignored.size === 0 || !path.includes('?')) return path;
    const [pathname, query] = [path.slice(0, path.indexOf('?')), new URLSearchParams(path.slice(path.indexOf('?') + 1))];
    for (const name of this.ignored) query.delete(name);
    const left = query.toString();
    return left === '' ? pathname : `${pathname}?${left}`;
  }

  /** The request sent to the target, its whole answer read. */
  private forward(req: IncomingMessage, body: Buffer): Promise<{ status: number; headers: IncomingHttpHeaders; body: Buffer }> {
    const headers: Record<string, string | string[]> = {};
    for (const [name, value] of Object.entries(req.headers)) {
      if (value !== undefined && !HOP_BY_HOP.has(name)) headers[name] = value;
    }
    headers.host = this.target.host;
    headers['content-length'] = String(body.length);
    return new Promise((resolve, reject) => {
      const upstream = http.request(
        { host: this.target.hostname, port: this.target.port, method: req.method, path: this.forwardedPath(req.url ?? '/'), headers, agent: this.agent },
        (answer) => {
          const chunks: Buffer[] = [];
          answer.on('data', (chunk: Buffer) => chunks.push(chunk));
          answer.on('end', () => resolve({ status: answer.statusCode ?? 502, headers: answer.headers, body: Buffer.concat(chunks) }));
          answer.on('error', reject);
        },
      );
      upstream.on('error', reject);
      upstream.end(body);
    });
  }

  private sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.timers.delete(timer);
        resolve();
      }, ms);
      this.timers.add(timer);
    });
  }

  private notify(): void {
    this.waiters = this.waiters.filter((waiter) => {
      const found = this.seen(waiter.match);
      if (found.length < waiter.count) return true;
      waiter.resolve(found.slice(0, waiter.count));
      return false;
    });
  }
}

function matches(match: Match, request: Pick<ProxiedRequest, 'method' | 'path'>): boolean {
  if (match.method !== undefined && match.method.toUpperCase() !== request.method) return false;
  if (match.path === undefined) return true;
  return typeof match.path === 'string' ? request.path === match.path || request.path.startsWith(match.path + '?') : match.path.test(request.path);
}

function injectedError(status: number) {
  return {
    statusCode: status,
    error: http.STATUS_CODES[status] ?? 'Error',
    code: 'INJECTED_FAULT',
    message: `the test proxy answered ${status} in place of the service`,
  };
}
