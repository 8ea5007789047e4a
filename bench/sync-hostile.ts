/**
 * `npm run bench -- sync-hostile`: the peak memory of `labeldesk sync --once` against remotes
 * that answer badly on purpose, each a server on 127.0.0.1: a list that never ends, and answers
 * just under the 64 MiB cap made to cost the most once parsed (a list of tiny elements, a
 * report of tiny datapoints, a reference of 63 MiB). Target: the process stays under 300 MB
 * whatever the remote sends, and each run ends with a message, not a stack trace.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { report } from './baseline';

const REPO = fileURLToPath(new URL('../', import.meta.url));
const MIB = 1024 * 1024;
const TARGET_MB = 300;

type Answer = (req: http.IncomingMessage, res: http.ServerResponse) => void;

/** A JSON text of about `bytes`, streamed in chunks: `head`, then `unit` repeated, then `tail`. */
function streamed(head: string, unit: string, tail: string, bytes: number): Answer {
  return (_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.write(head);
    const chunk = unit.repeat(Math.max(1, Math.floor((256 * 1024) / unit.length)));
    let left = bytes === Infinity ? Infinity : Math.floor(bytes / chunk.length);
    const pump = () => {
      while (left > 0 && !res.destroyed) {
        left--;
        if (!res.write(chunk)) return;
      }
      if (left <= 0 && !res.destroyed) res.end(tail);
    };
    res.on('drain', pump);
    pump();
  };
}

/** A page naming one new report, whose retrieve gets `retrieve`. */
function pageThen(retrieve: Answer): Answer {
  return (req, res) => {
    if (req.url?.startsWith('/v2/labelReports?')) {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ data: [{ id: 'big', updated: '2026-11-01T00:00:00.000Z' }], totalDocuments: 1 }));
      return;
    }
    retrieve(req, res);
  };
}

const NEAR_CAP = 63 * MIB;
const REPORT_HEAD =
  '{"id":"big","created":"2026-11-01T00:00:00.000Z","updated":"2026-11-01T00:00:00.000Z","company":{"id":"acme","name":"Acme","shortCode":"AC"},' +
  '"label":{"uid":"u","sequenceCode":"s"},"mode":"unknown","type":"tempSense","status":"active","hasFlag":false,"isArchived":false,"numberOfTaps":1,' +
  '"senseConfig":{"limits":{"minTemperature":2,"maxTemperature":8},"interval":60,"configTime":0,"startDelay":0,"runningTime":0},"access":[],' +
  '"alert":{"level":0,"timestamp":0},"labelReference":"';

/** The remote of each case: no /local/session (the vendor's cloud has none), `answer` for the rest. */
function remote(answer: Answer): Answer {
  return (req, res) => {
    if (req.url?.startsWith('/local/')) {
      res.writeHead(404, { 'content-type': 'application/json' });
      res.end('{"message":"not found"}');
      return;
    }
    answer(req, res);
  };
}

const CASES: Record<string, Answer> = {
  'a list that never ends': streamed('{"data":[', '{"id":"x","updated":"2026-11-01T00:00:00.000Z"},', '', Infinity),
  'a list of 63 MiB of tiny elements': streamed('{"data":[', '0,', '0],"totalDocuments":1}', NEAR_CAP),
  'a report of 63 MiB of tiny datapoints': pageThen(streamed(`${REPORT_HEAD}x","calculatedSenseData":{"datapoints":[`, '{},', '{}]}}', NEAR_CAP)),
  'a report with a 63 MiB reference': pageThen(streamed(REPORT_HEAD, 'x', '"}', NEAR_CAP)),
};

async function peakOfRun(url: string): Promise<{ peakMb: number; code: number | null; lastLine: string; stack: boolean }> {
  const dir = mkdtempSync(join(tmpdir(), 'labeldesk-bench-hostile-'));
  try {
    const child = spawn(process.execPath, [join(REPO, 'bin/labeldesk.js'), 'sync', '--once', '--db', join(dir, 'desk.sqlite'), '--remote', url, '--company', 'acme'], {
      env: { ...process.env, LABELDESK_REMOTE_KEY: 'ldk_bench_hostile_key', LABELDESK_DATA_DIR: join(dir, 'data') },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout!.on('data', (d) => (output += d));
    child.stderr!.on('data', (d) => (output += d));
    let peakKb = 0;
    // The high-water mark of the child's resident memory, read until it exits.
    const sample = setInterval(() => {
      try {
        const hwm = /VmHWM:\s+(\d+)/.exec(readFileSync(`/proc/${child.pid}/status`, 'utf8'));
        if (hwm) peakKb = Math.max(peakKb, Number(hwm[1]));
      } catch {
        // Gone already.
      }
    }, 5);
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
    clearInterval(sample);
    const lines = output.trim().split('\n');
    return { peakMb: peakKb / 1024, code, lastLine: lines.at(-1) ?? '', stack: /\n\s+at /.test(output) };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export async function run(): Promise<void> {
  console.log(`sync-hostile: load average ${loadavg()[0].toFixed(1)} on ${availableParallelism()} cores; target < ${TARGET_MB} MB each`);
  for (const [name, answer] of Object.entries(CASES)) {
    const server = http.createServer(remote(answer));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    try {
      const result = await peakOfRun(`http://127.0.0.1:${port}`);
      report({
        name: `sync-hostile: ${name}: peak RSS`,
        value: result.peakMb,
        unit: 'MB',
        better: 'lower',
        target: TARGET_MB,
        detail: `exit ${result.code}, ${result.stack ? 'STACK TRACE printed' : 'no stack trace'}; said: ${result.lastLine.slice(0, 160)}`,
      });
    } finally {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  }
  console.log(`sync-hostile: load average ${loadavg()[0].toFixed(1)} at the end`);
}
