/**
 * `labeldesk alarms` and `labeldesk smtp` on a real database file: rules made and listed,
 * alarms listed with who was told, an address set, and a test mail through a real relay with
 * the password from the environment, never from argv nor the file.
 */
import { PassThrough } from 'node:stream';
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { main } from '../../cli/main';
import { runLabeldesk } from '../cli/run-labeldesk';
import { calmReport, HOUR_WARM, openAlarmDesk, readingsAfter, type AlarmDesk } from './alarm-fixture';
import { startSmtpReceiver, type SmtpReceiver } from './smtp-receiver';

let desk: AlarmDesk;
let receiver: SmtpReceiver;
beforeAll(async () => {
  desk = openAlarmDesk();
  receiver = await startSmtpReceiver(0, {
    authOptional: false,
    onAuth(auth, _session, callback) {
      if (auth.username === 'alarms' && auth.password === 'pw from env') callback(null, { user: 'alarms' });
      else callback(new Error('535 wrong login'));
    },
    allowInsecureAuth: true,
  });
  desk.service.users.create(null, 'acme', { login: 'anna', name: 'Anna Berg', role: 'reviewer', password: 'correct horse battery' });
  desk.service.putReport(calmReport('r1', { mode: 'airFreight' }), { kind: 'import' });
  desk.service.close();
});
afterAll(async () => {
  await receiver.close();
  desk.close();
});

async function run(...argv: string[]): Promise<{ code: number; out: string; err: string }> {
  const out = new PassThrough();
  const err = new PassThrough();
  let outText = '';
  let errText = '';
  out.on('data', (d) => (outText += d));
  err.on('data', (d) => (errText += d));
  const code = await main(argv, { out, err });
  return { code, out: outText, err: errText };
}

describe('labeldesk alarms and smtp', () => {
  test('rules are added and listed; alarms are listed with who was told; an address is set', async () => {
    const db = desk.dbFile;
    expect(await run('alarms', 'email', '--db', db, '--company', 'acme', '--login', 'anna', '--email', 'anna@acme.example')).toMatchObject({
      code: 0,
      out: 'alarm e-mails reach anna at anna@acme.example\n',
    });
    const added = await run('alarms', 'add-rule', '--db', db, '--company', 'acme', '--name', 'Air critical', '--level', 'critical', '--filter', 'mode[eq]airFreight',
      '--step', 'anna,qa@acme.example', '--step', 'lead@acme.example', '--escalate-after', '120');
    expect(added.code).toBe(0);
    const id = /rule (rule_[0-9a-f]+)/.exec(added.out)![1];
    const listed = await run('alarms', 'rules', '--db', db, '--company', 'acme');
    expect(listed.out.split('\n')[1].split(/\s{2,}/)).toEqual([id, 'acme', 'Air critical', 'critical', 'mode[eq]airFreight', expect.stringMatching(/^[0-9a-f-]+,qa@acme\.example → lead@acme\.example$/), 'email,desktop', '120 min', 'yes']);

    expect(await run('alarms', 'add-rule', '--db', db, '--company', 'acme', '--name', 'x', '--level', 'moderate', '--step', 'nobody')).toMatchObject({
      code: 1,
      err: "labeldesk alarms: no person 'nobody' in the company 'acme'\n",
    });
    expect((await run('alarms', 'add-rule', '--db', db, '--company', 'acme', '--name', 'x', '--level', 'hot', '--step', 'a@b.c')).code).toBe(2);

    const service = desk.reopen();
    service.intake.tap(desk.acme, 'r1', readingsAfter(4, HOUR_WARM));
    service.close();
    const alarms = await run('alarms', 'list', '--db', db, '--company', 'acme', '--state', 'open');
    expect(alarms.code).toBe(0);
    expect(alarms.out).toMatch(/Critical\s+REF-r1\s+open\s+Air critical\s+desktop:Anna Berg \(anna\)/);
    expect(alarms.out).toMatch(/^1 alarms, 1 not acknowledged$/m);
    expect((await run('alarms', 'list', '--db', db, '--company', 'acme', '--state', 'done')).code).toBe(2);
  });

  test('smtp set, show and test: the password comes from the environment and is never written to the file', async () => {
    const db = desk.dbFile;
    const set = await run('smtp', 'set', '--db', db, '--host', '127.0.0.1', '--port', String(receiver.port), '--security', 'none', '--user', 'alarms', '--from', 'alarms@acme.example');
    expect(set).toMatchObject({ code: 0, out: `SMTP relay set: 127.0.0.1:${receiver.port} (none), login alarms, from alarms@acme.example\n` });
    expect((await run('smtp', 'show', '--db', db)).out).toMatch(/^user: +alarms$/m);

    const sent = await runLabeldesk(desk.dir, ['smtp', 'test', '--db', db, '--to', 'qa@acme.example'], { LABELDESK_SMTP_PASSWORD: 'pw from env' });
    expect(sent.stderr).toBe('');
    expect(sent.code).toBe(0);
    expect(sent.stdout).toMatch(/^sent <test_[0-9a-f-]+@labeldesk\.invalid>: the relay took the mail to qa@acme\.example: 250/);
    const [mail] = await receiver.received(1);
    expect(mail).toMatchObject({ to: ['qa@acme.example'], subject: 'LabelDesk test e-mail' });

    const refused = await runLabeldesk(desk.dir, ['smtp', 'test', '--db', db, '--to', 'qa@acme.example'], { LABELDESK_SMTP_PASSWORD: 'wrong' });
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(new RegExp(`^labeldesk smtp test: the SMTP relay 127\\.0\\.0\\.1:${receiver.port} refused the login of 'alarms': 535`));
    expect(readFileSync(db).includes(Buffer.from('pw from env'))).toBe(false);
  });
});
