/**
 * The alarm queue survives a crash: `labeldesk serve` is killed (SIGKILL) after the tap that
 * raised an alarm committed and while its e-mail is at the relay, unanswered; started again on
 * the same file, it sends the mail again, with the same Message-ID, and logs one success. So
 * in a burst, whose attempts are recorded together with the next claims: killed mid-way, each
 * mail is delivered after the restart, a copy only ever with its first's Message-ID.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openService } from '../../host/open-service';
import { alarmRuleBodySchema } from '../../schema/alarms';
import { REPO } from '../cli/run-labeldesk';
import { COMPANIES } from '../support/service-fixture';
import { ALL, calmReport, ONE_WARM, readingsAfter } from './alarm-fixture';
import { startSmtpReceiver, until } from './smtp-receiver';

let dir: string;
const children: ChildProcess[] = [];
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'labeldesk-alarm-crash-'));
});
afterAll(() => {
  for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  rmSync(dir, { recursive: true, force: true });
});

function serve(dbFile: string): Promise<{ child: ChildProcess; url: string; exited: Promise<NodeJS.Signals | number | null> }> {
  const child = spawn(process.execPath, [join(REPO, 'bin/labeldesk.js'), 'serve', '--db', dbFile, '--port', '0'], {
    cwd: dir,
    stdio: ['ignore', 'pipe', 'inherit'],
    env: { ...process.env, LABELDESK_DATA_DIR: join(dir, 'data') },
  });
  children.push(child);
  const exited = new Promise<NodeJS.Signals | number | null>((resolve) => child.on('exit', (code, signal) => resolve(signal ?? code)));
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (chunk) => {
      out += chunk;
      const url = /listening on (http:\/\/\S+)\n/.exec(out)?.[1];
      if (url) resolve({ child, url, exited });
    });
    void exited.then((end) => reject(new Error(`serve ended (${end}) before listening:\n${out}`)));
  });
}

describe('alarm e-mail across a crash', () => {
  it('a mail committed before a SIGKILL is sent after the restart, with the same Message-ID', async () => {
    const receiver = await startSmtpReceiver();
    receiver.hold = true;
    const dbFile = join(dir, 'crash.sqlite');
    const setup = openService(dbFile);
    for (const company of COMPANIES) setup.companies.upsert(company);
    const key = setup.apiKeys.create('acme', ALL, 'crash').key;
    const acme = setup.apiKeys.authenticate(key);
    setup.putReport(calmReport('r1'), { kind: 'import' });
    setup.alarms.saveSmtp(null, { host: '127.0.0.1', port: receiver.port, security: 'none', user: null, from: 'alarms@acme.example', appUrl: null });
    setup.alarms.createRule(acme, 'acme', alarmRuleBodySchema.parse({ name: 'Warm', minLevel: 1, steps: [{ emails: ['qa@acme.example'] }], channels: ['email'] }));
    setup.close();

    try {
      const first = await serve(dbFile);
      const tapped = await fetch(`${first.url}/v2/labelReports/r1/taps`, {
        method: 'POST',
        headers: { 'x-api-key': key, 'content-type': 'application/json' },
        body: JSON.stringify(readingsAfter(4, ONE_WARM)),
      });
      expect(tapped.status).toBe(200);
      // At the relay and unanswered: the kill lands between the commit and the delivery's record.
      const [unanswered] = await receiver.arrived(1);
      first.child.kill('SIGKILL');
      expect(await first.exited).toBe('SIGKILL');

      receiver.hold = false;
      const second = await serve(dbFile);
      const [delivered] = await receiver.received(1);
      expect(delivered.messageId).toBe(unanswered.messageId);
      expect(delivered.to).toEqual(['qa@acme.example']);
      // The link names the address of the service that sent it.
      expect(delivered.text).toContain(`${second.url}/?report=r1`);

      second.child.kill('SIGTERM');
      expect(await second.exited).toBe(0);
      const after = openService(dbFile);
      const log = after.alarms.deliveries(after.apiKeys.authenticate(key), 1, 10).deliveries;
      after.close();
      expect(log.map((d) => [d.attempt, d.status])).toEqual([[1, 'succeeded']]);
    } finally {
      await receiver.close();
    }
  });

  it('a burst killed mid-way is mailed after the restart, each mail once or again under its own Message-ID', async () => {
    const receiver = await startSmtpReceiver();
    const dbFile = join(dir, 'burst.sqlite');
    const setup = openService(dbFile);
    for (const company of COMPANIES) setup.companies.upsert(company);
    const key = setup.apiKeys.create('acme', ALL, 'crash').key;
    const ids = Array.from({ length: 12 }, (_, i) => `r${String(i).padStart(2, '0')}`);
    for (const id of ids) setup.putReport(calmReport(id), { kind: 'import' });
    setup.alarms.saveSmtp(null, { host: '127.0.0.1', port: receiver.port, security: 'none', user: null, from: 'alarms@acme.example', appUrl: null });
    setup.alarms.createRule(setup.apiKeys.authenticate(key), 'acme', alarmRuleBodySchema.parse({ name: 'Warm', minLevel: 1, steps: [{ emails: ['qa@acme.example'] }], channels: ['email'] }));
    setup.close();

    try {
      const first = await serve(dbFile);
      const tap = async (id: string) => {
        const tapped = await fetch(`${first.url}/v2/labelReports/${id}/taps`, {
          method: 'POST',
          headers: { 'x-api-key': key, 'content-type': 'application/json' },
          body: JSON.stringify(readingsAfter(4, ONE_WARM)),
        });
        expect(tapped.status).toBe(200);
      };
      for (const id of ids.slice(0, 5)) await tap(id);
      // Some mails answered (their records may or may not have committed), the next ones held.
      await receiver.received(4);
      receiver.hold = true;
      for (const id of ids.slice(5)) await tap(id);
      await receiver.arrived(receiver.mails.length + 1);
      first.child.kill('SIGKILL');
      expect(await first.exited).toBe('SIGKILL');

      receiver.hold = false;
      const second = await serve(dbFile);
      await until(() => new Set(receiver.mails.map((m) => m.messageId)).size === ids.length);
      second.child.kill('SIGTERM');
      expect(await second.exited).toBe(0);

      // Every copy of a mail is that mail: one Message-ID, one report.
      const byId = new Map<string | undefined, Set<string | undefined>>();
      for (const mail of receiver.mails) byId.set(mail.messageId, (byId.get(mail.messageId) ?? new Set()).add(mail.subject));
      expect([...byId.values()].map((subjects) => subjects.size)).toEqual(ids.map(() => 1));
      expect([...byId.values()].flatMap((subjects) => [...subjects]).sort()).toEqual(ids.map((id) => `Moderate alarm: REF-${id}`));

      const after = openService(dbFile);
      const log = after.alarms.deliveries(after.apiKeys.authenticate(key), 1, 100).deliveries;
      after.close();
      expect(log.map((d) => d.status)).toEqual(ids.map(() => 'succeeded'));
      expect(new Set(log.map((d) => `<${d.jobId}@labeldesk.invalid>`))).toEqual(new Set(byId.keys()));
    } finally {
      await receiver.close();
    }
  });
});
