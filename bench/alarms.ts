/**
 * Alarms: a burst of 10 000 alert changes (taps that take calm reports to a moderate alert),
 * each raising its alarm in the tap's transaction, turned into e-mails by the service's own
 * queue through a real SMTP relay on loopback (smtp-server, in a thread of its own as a relay
 * would be a process of its own). The figure is alarms mailed per second from the first tap to
 * the relay's last mail, with the process's peak resident memory.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { setImmediate as yieldToLoop } from 'node:timers/promises';
import { Worker } from 'node:worker_threads';
import { Session } from 'node:inspector/promises';
import { report } from './baseline';
import { printSummary, summarize } from './cpu-profile';
import { openService } from '../host/open-service';
import { alarmRuleBodySchema } from '../schema/alarms';
import { bundleReportSchema } from '../schema/bundle';

const CHANGES = Number(process.env.BENCH_ALARM_CHANGES ?? 10_000);
/** A folder to keep a CPU profile of the service's thread over the burst alone (the set-up's imports left out). */
const PROFILE_DIR = process.env.BENCH_ALARM_PROFILE;
const TARGET_RATE = 200;
/**
 * `command` opens the database as a command does (SQLite's own checkpoints in the service's thread,
 * statement journals in files), to compare with how the running service opens it.
 */
const AS_SERVICE = process.env.BENCH_ALARM_OPEN !== 'command';
const T0 = 1_780_000_000;

const RELAY = `
const { SMTPServer } = require('smtp-server');
const { parentPort } = require('node:worker_threads');
let mails = 0;
const server = new SMTPServer({
  authOptional: true, disabledCommands: ['STARTTLS'], logger: false,
  onData(stream, _session, callback) {
    stream.on('data', () => {});
    stream.on('end', () => { mails++; callback(); if (mails === ${CHANGES}) parentPort.postMessage({ done: performance.timeOrigin + performance.now() }); });
  },
});
server.listen(0, '127.0.0.1', () => parentPort.postMessage({ port: server.server.address().port }));
`;

function calm(i: number) {
  return bundleReportSchema.parse({
    id: `r-${i}`,
    created: '2026-06-01T08:00:00.000Z',
    companyId: 'acme',
    label: { uid: `uid-${i}`, sequenceCode: `SEQ-${i}`, type: 'TempSense T1', name: `Pallet ${i}`, firmwareVersionInfo: { firmwareVersion: '2.4.1', firmwareApiVersion: '3' } },
    mode: 'roadTransport',
    type: 'tempSense',
    status: 'active',
    labelReference: `SHP-${i}`,
    senseConfig: { limits: { minTemperature: 2, maxTemperature: 8 }, interval: 600, configTime: T0 - 600, startDelay: 600, runningTime: 86_400 },
    numberOfTaps: 1,
    reportedSenseData: { datapoints: [4, 5, 5, 4].map((temperature, k) => ({ timestamp: T0 + k * 600, temperature })) },
  });
}

/**
 * CPU seconds of this process's main thread, where the service runs (Linux: the thread's own
 * line in /proc; elsewhere null). The relay's thread stands in for another machine.
 */
function mainThreadCpuSeconds(): number | null {
  const file = `/proc/self/task/${process.pid}/stat`;
  if (!existsSync(file)) return null;
  // After the command's closing parenthesis: state is field 3, utime and stime fields 14 and 15.
  const stat = readFileSync(file, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const ticksPerSecond = 100;
  return (Number(fields[11]) + Number(fields[12])) / ticksPerSecond;
}

export async function run(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'labeldesk-bench-alarms-'));
  const relay = new Worker(RELAY, { eval: true });
  const port = await new Promise<number>((resolve) => relay.once('message', (m: { port: number }) => resolve(m.port)));
  const done = new Promise<number>((resolve) => relay.on('message', (m: { done?: number }) => m.done && resolve(m.done)));
  // As the running service opens its database (host/start-service.ts).
  const service = openService(join(dir, 'bench.sqlite'), { transientInMemory: AS_SERVICE });
  try {
    service.companies.upsert({ id: 'acme', name: 'Acme Cold Chain', shortCode: 'ACME' });
    const key = service.apiKeys.create('acme', ['labelReports:read', 'labelReports:create', 'webhooks:manage'], 'bench').key;
    const caller = service.apiKeys.authenticate(key);
    for (let i = 0; i < CHANGES; i++) service.putReport(calm(i), { kind: 'import' });
    service.alarms.saveSmtp(null, { host: '127.0.0.1', port, security: 'none', user: null, from: 'alarms@acme.example', appUrl: 'http://127.0.0.1:4317' });
    service.alarms.createRule(caller, 'acme', alarmRuleBodySchema.parse({ name: 'Warm', minLevel: 1, steps: [{ emails: ['qa@acme.example', 'lead@acme.example'] }], channels: ['email', 'desktop'] }));
    const queue = service.deliverAlarms({ concurrency: 16 });
    // As the running service does (host/start-service.ts).
    const checkpointer = AS_SERVICE ? await service.checkpointOffThread() : null;

    const profiler = PROFILE_DIR ? new Session() : undefined;
    if (profiler) {
      profiler.connect();
      await profiler.post('Profiler.enable');
      await profiler.post('Profiler.start');
    }
    const loadBefore = loadavg();
    let peakRss = process.memoryUsage().rss;
    // rss() alone: the whole memoryUsage() reads the heap's statistics, work the service's thread would be charged for.
    const sampler = setInterval(() => (peakRss = Math.max(peakRss, process.memoryUsage.rss())), 50);
    const cpuBefore = process.cpuUsage();
    const mainBefore = mainThreadCpuSeconds();
    const started = performance.timeOrigin + performance.now();
    for (let i = 0; i < CHANGES; i++) {
      service.intake.tap(caller, `r-${i}`, { datapoints: [{ timestamp: T0 + 4 * 600, temperature: 9 }] });
      // The queue sends while taps keep coming, as on a busy desk.
      if (i % 50 === 49) await yieldToLoop();
    }
    const tapped = performance.timeOrigin + performance.now();
    const finished = await done;
    const cpu = process.cpuUsage(cpuBefore);
    const mainAfter = mainThreadCpuSeconds();
    clearInterval(sampler);
    peakRss = Math.max(peakRss, process.memoryUsage().rss);
    const loadAfter = loadavg();
    if (profiler) {
      const { profile } = await profiler.post('Profiler.stop');
      profiler.disconnect();
      const file = join(PROFILE_DIR!, `alarms-${Date.now()}.cpuprofile`);
      writeFileSync(file, JSON.stringify(profile));
      printSummary(`CPU profile of the burst (${file})`, summarize(profile, 40));
    }
    await queue.stop();
    const raised = service.alarms.list(caller, { pageNumber: 1, pageSize: 1 }).totalDocuments;

    const seconds = (finished - started) / 1000;
    const rate = CHANGES / seconds;
    console.log(`${CHANGES} alert changes → ${raised} alarms, ${CHANGES} mails (2 recipients each) through a loopback SMTP relay, 16 in flight`);
    const burst = (what: string) => `alarms: ${CHANGES} alert changes${AS_SERVICE ? '' : ' (opened as a command)'}, ${what}`;
    report({ name: burst('taps committed in'), value: (tapped - started) / 1000, unit: 's', better: 'lower' }, '  ');
    report({ name: burst('last mail at'), value: seconds, unit: 's', better: 'lower' }, '  ');
    report({ name: burst('alarms mailed'), value: rate, unit: 'alarms/s', better: 'higher', target: TARGET_RATE }, '  ');
    // CPU time moves less with the machine's load than the rate does.
    report(
      {
        name: burst('CPU time per alarm, every thread'),
        value: (cpu.user + cpu.system) / 1000 / CHANGES,
        unit: 'ms',
        better: 'lower',
        detail: `user ${(cpu.user / 1000 / CHANGES).toFixed(2)}, system ${(cpu.system / 1000 / CHANGES).toFixed(2)}; the service's, ${checkpointer ? "its checkpoints' and " : ''}the relay's threads`,
      },
      '  ',
    );
    if (mainBefore !== null && mainAfter !== null) {
      const ms = ((mainAfter - mainBefore) * 1000) / CHANGES;
      report(
        { name: burst("CPU time per alarm, the service's thread"), value: ms, unit: 'ms', better: 'lower', detail: `at most ${(1000 / ms).toFixed(0)} alarms/s on a core of its own, the relay elsewhere` },
        '  ',
      );
    }
    report({ name: burst('peak RSS'), value: peakRss / 1024 / 1024, unit: 'MiB', better: 'lower' }, '  ');
    console.log(`  load average (1, 5, 15 min): before ${loadBefore.map((l) => l.toFixed(2)).join(' ')}, after ${loadAfter.map((l) => l.toFixed(2)).join(' ')}`);
  } finally {
    service.close();
    await relay.terminate();
    rmSync(dir, { recursive: true, force: true });
  }
}
