/**
 * Webhook delivery: 10 000 label activations, each committed with its event through the intake,
 * delivered by the service's own worker to a receiver on loopback (in a thread of its own, as a
 * receiver would be a process of its own). Live: the worker delivers while activations keep
 * coming; figures are the rate over the run and the delay from each commit to its arrival.
 * Backlog: 10 000 more wait in the outbox (a service that was down) when the worker starts;
 * the figure is how fast they drain.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setImmediate as yieldToLoop } from 'node:timers/promises';
import { Worker } from 'node:worker_threads';
import type { ActivationBody } from '../schema/intake';
import { openService } from '../host/open-service';
import { report } from './baseline';
import { median, percentile } from './stats';

const EVENTS = Number(process.env.BENCH_WEBHOOK_EVENTS ?? 10_000);
const TARGET_RATE = 500;
const TARGET_P50_MS = 50;

/** Milliseconds since the epoch, with the sub-millisecond precision both threads share. */
const clock = () => performance.timeOrigin + performance.now();

// Answers 204 and notes when each report's event arrived; the id is the first one in the body.
const RECEIVER = `
const http = require('node:http');
const { parentPort } = require('node:worker_threads');
const clock = () => performance.timeOrigin + performance.now();
const arrivals = [];
const server = http.createServer((req, res) => {
  let head = '';
  req.on('data', (chunk) => { if (head.length < 200) head += chunk; });
  req.on('end', () => {
    arrivals.push([/"data":\\{"id":"([^"]+)"/.exec(head)[1], clock()]);
    res.writeHead(204).end();
    if (arrivals.length === ${EVENTS}) parentPort.postMessage({ arrivals: arrivals.splice(0) });
  });
});
server.listen(0, '127.0.0.1', () => parentPort.postMessage({ port: server.address().port }));
`;

function activation(i: number, phase: string): ActivationBody {
  return {
    id: `${phase}-${i}`,
    label: {
      uid: `uid-${i}`,
      sequenceCode: `SEQ-${i}`,
      type: 'TempSense T1',
      name: `Pallet ${i}`,
      firmwareVersionInfo: { firmwareVersion: '2.4.1', firmwareApiVersion: '3' },
    },
    mode: 'roadTransport',
    type: 'tempSense',
    labelReference: `SHP-${i}`,
    senseConfig: { limits: { minTemperature: 2, maxTemperature: 8 }, interval: 600, configTime: 1_780_000_000, startDelay: 600, runningTime: 604_800 },
  };
}

export async function run(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'labeldesk-bench-webhooks-'));
  const receiver = new Worker(RECEIVER, { eval: true });
  const service = openService(join(dir, 'webhooks.sqlite'));
  try {
    const port = await new Promise<number>((resolve) => receiver.once('message', (m: { port: number }) => resolve(m.port)));
    const nextArrivals = () =>
      new Promise<[string, number][]>((resolve) => {
        const take = (m: { arrivals?: [string, number][] }) => {
          if (!m.arrivals) return;
          receiver.off('message', take);
          resolve(m.arrivals);
        };
        receiver.on('message', take);
      });
    service.companies.upsert({ id: 'acme', name: 'Acme Cold Chain', shortCode: 'ACME' });
    const caller = { keyId: 'bench', companyId: 'acme', permissions: new Set(['labelReports:create', 'webhooks:manage'] as const) };
    service.webhooks.create(caller, { url: `http://127.0.0.1:${port}/labeldesk`, events: ['labelReport.activated'] });
    const committed = new Map<string, number>();
    const activate = (i: number, phase: string) => {
      service.intake.activate(caller, activation(i, phase));
      committed.set(`${phase}-${i}`, clock());
    };

    // Activations come as fast as the intake takes them, each letting the event loop turn, as
    // requests would: the worker delivers while they keep coming.
    let arrived = nextArrivals();
    let worker = service.deliverWebhooks();
    const started = clock();
    for (let i = 0; i < EVENTS; i++) {
      activate(i, 'live');
      await yieldToLoop();
    }
    const produced = clock();
    const live = await arrived;
    const last = Math.max(...live.map(([, at]) => at));
    await worker.stop();
    const delays = live.map(([id, at]) => at - committed.get(id)!);
    const row = (what: string) => `webhooks: live, ${EVENTS} activations: ${what}`;
    report({ name: row('committed in'), value: (produced - started) / 1000, unit: 's', better: 'lower' });
    report({ name: row('all delivered after the last commit'), value: last - produced, unit: 'ms', better: 'lower' });
    report({ name: row('delivery rate'), value: EVENTS / ((last - started) / 1000), unit: 'events/s', better: 'higher', target: TARGET_RATE });
    report({ name: row('commit to delivery p50'), value: median(delays), unit: 'ms', better: 'lower', target: TARGET_P50_MS });
    report({ name: row('commit to delivery p99'), value: percentile(delays, 99), unit: 'ms', better: 'lower' });
    report({ name: row('commit to delivery max'), value: Math.max(...delays), unit: 'ms', better: 'lower' });

    for (let i = 0; i < EVENTS; i++) activate(i, 'backlog');
    arrived = nextArrivals();
    const drainStarted = clock();
    worker = service.deliverWebhooks();
    const backlog = await arrived;
    const drained = Math.max(...backlog.map(([, at]) => at));
    await worker.stop();
    report({ name: `webhooks: backlog, ${EVENTS} waiting messages drained at`, value: EVENTS / ((drained - drainStarted) / 1000), unit: 'events/s', better: 'higher' });
  } finally {
    await receiver.terminate();
    service.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
