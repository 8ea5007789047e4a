/**
 * Every curl example of README.md, CONTRIBUTING.md and docs/*.md, run as written by bash and the
 * real curl against a demo service on 127.0.0.1, in that order (docs/ by name): exit 0 and a 2xx,
 * or the status its comment names (`# answers 400`). Each is reported by file and line. Only what
 * a reader would fill in is replaced: the
 * service's port for 4317, a report of the demo for REPORT_ID, and $KEY and $HOOK as shell
 * variables, the key holding what the block's own `keys create` line grants (else a key
 * `labeldesk demo` prints) and the webhook pointing at a receiver started here. An example naming
 * any other host fails the suite, never contacted: this test talks to 127.0.0.1 only.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startService, type RunningService } from '../../host/start-service';
import { parseListQuery } from '../../query/list-query';
import type { Permission } from '../../schema/report';
import { createWebhookBodySchema, REPORT_EVENT_TYPES } from '../../schema/webhooks';
import type { Caller } from '../../service/api-keys';
import { openService } from '../../host/open-service';
import { Receiver } from '../support/webhook-receiver';
import { commandsOf, urlHosts, type ShellCommand } from './readme-commands';
import { runToEnd, type Run } from '../cli/run-labeldesk';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
/** The documents whose examples run: path from the repository root and text. */
const DOCUMENTS: { file: string; text: string }[] = [
  'README.md',
  'CONTRIBUTING.md',
  ...readdirSync(join(ROOT, 'docs'))
    .filter((name) => name.endsWith('.md'))
    .sort()
    .map((name) => `docs/${name}`),
]
  .filter((file) => existsSync(join(ROOT, file)))
  .map((file) => ({ file, text: readFileSync(join(ROOT, file), 'utf8') }));
const README_SERVICE = '127.0.0.1:4317';
const README_RECEIVER = '127.0.0.1:9000';

interface Example extends ShellCommand {
  /** The document it comes from, from the repository root. */
  file: string;
}

const EXAMPLES: Example[] = DOCUMENTS.flatMap(({ file, text }) => commandsOf(text, 'curl').map((c) => ({ ...c, file })));

/** The status an example's comment says it answers (`# answers 400`), else null for any 2xx. */
function expectedStatus(example: ShellCommand): number | null {
  const status = /#\s*answers\s+(\d{3})\b/.exec(example.text)?.[1];
  return status === undefined ? null : Number(status);
}

/** Why an example is not run, or null when it talks to the README's local service only. */
function notRun(example: ShellCommand): string | null {
  const hosts = urlHosts(example.code);
  if (hosts.length === 0) return 'it names no URL';
  const elsewhere = hosts.filter((h) => h !== README_SERVICE);
  return elsewhere.length > 0 ? `it talks to ${elsewhere.join(', ')}, not to the local service` : null;
}

/** What the block's `keys create` line grants, as the README has the reader make the key. */
function keySpec(example: Example): { companyId: string; permissions: Permission[] } | null {
  const blockText = example.block?.lines.join('\n') ?? '';
  const create = /labeldesk keys create\b[^\n]*/.exec(blockText)?.[0];
  if (!create) return null;
  const companyId = /--company\s+(\S+)/.exec(create)?.[1];
  const permissions = /--permissions\s+(\S+)/.exec(create)?.[1];
  if (!companyId || !permissions) throw new Error(`${example.file}:${example.line}: the block's keys create line names no company or permissions`);
  return { companyId, permissions: permissions.split(',') as Permission[] };
}

interface CurlRun extends Run {
  status: number | null;
}

let dir: string;
let running: RunningService;
let receiver: Receiver;
let demoKey: string;
let reportId: string;
let hookId: string | undefined;
const blockKeys = new Map<string, string>();

/**
 * Runs the command as a reader's shell would, in a bare environment: no proxy variables, no
 * curl settings of the machine; the curlrc here only reports the HTTP status on stderr.
 */
async function runCurl(command: string, env: Record<string, string>): Promise<CurlRun> {
  const run = await runToEnd('bash', ['-c', command], {
    cwd: dir,
    env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: dir, CURL_HOME: dir, LC_ALL: 'C', ...env },
  });
  const status = /LABELDESK_HTTP_STATUS=(\d{3})/.exec(run.stderr)?.[1];
  return { ...run, status: status === undefined ? null : Number(status) };
}

/** The example with the reader's blanks filled in. */
function filledIn(example: ShellCommand): string {
  return example.text
    .replaceAll(README_SERVICE, `127.0.0.1:${running.port}`)
    .replaceAll(README_RECEIVER, `127.0.0.1:${receiver.port}`)
    .replace(/\bREPORT_ID\b/g, reportId);
}

function keyFor(example: Example): string {
  const spec = keySpec(example);
  if (!spec) return demoKey;
  const name = `${spec.companyId}:${spec.permissions.join(',')}`;
  let key = blockKeys.get(name);
  if (!key) {
    key = running.service.apiKeys.create(spec.companyId, spec.permissions, `docs ${name}`).key;
    blockKeys.set(name, key);
  }
  return key;
}

/**
 * The webhook of docs/webhooks.md's block, made when an example first names it as that block does
 * (`labeldesk webhooks create` for acme, every report event): the examples before it activate
 * and tap a label, which it is not to hear of.
 */
function hook(): string {
  hookId ??= running.service.webhooks.create(
    { companyId: 'acme', permissions: new Set(['webhooks:manage']) },
    createWebhookBodySchema.parse({ url: receiver.url('/labeldesk'), events: [...REPORT_EVENT_TYPES] }),
  ).id;
  return hookId;
}

/**
 * A report every example can act on, as a reader would pick one: owned by acme (its key may
 * PATCH and decide), with a trim (`readings.csv?range=trimmed`), a minimum the PATCH's maximum
 * of 10 °C does not undercut, and readings in the trimmed range beyond the limits after that
 * PATCH (the acknowledgement needs an alert).
 */
function pickReport(dbFile: string): string {
  const service = openService(dbFile);
  try {
    const caller: Caller = { keyId: 'test', companyId: 'acme', permissions: new Set(['labelReports:read']) };
    const page = service.reports.list(caller, parseListQuery({ order: 'created[asc]', pageSize: '500', output: 'minimal' }));
    for (const row of page.data) {
      if (row.company.id !== 'acme') continue;
      const report = service.reports.retrieve(caller, row.id);
      const min = report.senseConfig.limits.minTemperature ?? -Infinity;
      const trimmed = report.trimmedSenseData?.datapoints ?? [];
      const beyond = trimmed.filter((d) => d.temperature !== undefined && (d.temperature > 10 || d.temperature < min));
      if (min <= 10 && beyond.length > 0) return row.id;
    }
    throw new Error('the demo data has no trimmed acme report that stays out of limits with a maximum of 10 °C');
  } finally {
    service.close();
  }
}

beforeAll(async () => {
  try {
    execFileSync('curl', ['--version'], { stdio: 'ignore' });
  } catch {
    throw new Error('The README test runs the real curl: install it (Debian/Ubuntu: apt-get install curl).');
  }
  dir = mkdtempSync(join(tmpdir(), 'labeldesk-readme-'));
  writeFileSync(join(dir, '.curlrc'), 'write-out = "%{stderr}\\nLABELDESK_HTTP_STATUS=%{http_code}\\n"\nnoproxy = "*"\nmax-time = 60\n');
  const dbFile = join(dir, 'demo.sqlite');
  const service = openService(dbFile);
  try {
    const summary = service.createDemoData({ reports: 40, seed: 1 });
    demoKey = summary.keys.find((k) => k.companyId === 'acme' && k.permissions.includes('labelReports:update'))!.key;
  } finally {
    service.close();
  }
  reportId = pickReport(dbFile);
  receiver = await Receiver.start();
  running = await startService({ dbFile, port: 0, staticDir: join(dir, 'no-ui') });
});

afterAll(async () => {
  await running?.close();
  await receiver?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe('curl examples of README.md, CONTRIBUTING.md and docs/*.md', () => {
  it('finds every curl command of each document', () => {
    for (const { file, text } of DOCUMENTS) {
      const lines = text.split('\n');
      const mentions = lines.flatMap((line, i) => (/(^|[\s`(])curl\s+(-|https?:|['"])/.test(line) ? [i + 1] : []));
      expect(
        EXAMPLES.filter((e) => e.file === file).map((e) => e.line),
        file,
      ).toEqual(mentions);
    }
    expect(EXAMPLES.filter((e) => e.file === 'README.md').length).toBeGreaterThanOrEqual(3);
    expect(EXAMPLES.length).toBeGreaterThanOrEqual(20);
  });

  it('runs every one: each talks to the local service, none to a host it may not contact', () => {
    expect(EXAMPLES.flatMap((e) => (notRun(e) ? [`${e.file}:${e.line}: ${notRun(e)}`] : []))).toEqual([]);
  });

  for (const example of EXAMPLES) {
    const title = `${example.file}:${example.line} ${example.code.replace(/\s+/g, ' ').slice(0, 110)}`;
    // One that may not run is refused above, not skipped here.
    if (notRun(example)) continue;
    it(title, async () => {
      const env: Record<string, string> = { KEY: keyFor(example) };
      if (/\$\{?HOOK\b/.test(example.code)) env.HOOK = hook();
      const run = await runCurl(filledIn(example), env);
      const seen = `exit ${run.code}, HTTP ${run.status}\n${run.stdout.slice(0, 500)}`;
      expect(run.code, seen).toBe(0);
      const expected = expectedStatus(example);
      if (expected !== null) {
        expect(run.status, seen).toBe(expected);
        return;
      }
      expect(run.status, seen).toBeGreaterThanOrEqual(200);
      expect(run.status, seen).toBeLessThan(300);
    });
  }

  it('the webhook test docs/webhooks.md sends reaches the receiver as a webhook.test', async () => {
    const [first] = await receiver.waitFor(1);
    expect(first.path).toBe('/labeldesk');
    expect(JSON.parse(first.body).type).toBe('webhook.test');
  });

  it('would catch a curl line without -g: curl then refuses the bracketed URLs and exits 3', async () => {
    const bracketed = EXAMPLES.filter((e) => /https?:\/\/[^\s'"]*\[/.test(e.code));
    expect(bracketed.length).toBeGreaterThanOrEqual(3);
    for (const example of bracketed) {
      const withoutG = filledIn(example).replace(/^curl -gs /, 'curl -s ');
      expect(withoutG).not.toContain(' -g');
      const run = await runCurl(withoutG, { KEY: demoKey });
      expect(run.code, `${example.file}:${example.line} without -g`).toBe(3);
    }
  });
});
