/**
 * The relay over TLS, against a real smtp-server on 127.0.0.1 with a self-signed certificate:
 * implicit TLS and STARTTLS deliver, logged in with the relay's user and password; a relay
 * that offers no STARTTLS when the settings require it, and a certificate this desk does not
 * trust, are refused in words in the delivery log. A certificate is trusted by naming it in
 * LABELDESK_SMTP_CA_FILE.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, test } from 'vitest';
import type { AlarmQueue } from '../../alarms/alarm-queue';
import { SMTP_CA_FILE_ENV, trustFromEnvironment } from '../../alarms/smtp-relay';
import { sendTestMail } from '../../alarms/test-mail';
import type { SmtpRecord } from '../../db/alarm-store';
import { alarmRuleBodySchema } from '../../schema/alarms';
import { calmReport, ONE_WARM, openAlarmDesk, readingsAfter, type AlarmDesk, closeMailTest, FAST_RETRIES } from './alarm-fixture';
import { startSmtpReceiver, until, type SmtpReceiver } from './smtp-receiver';
import { TEST_RELAY_CERT, TEST_RELAY_KEY } from './tls-fixture';

const PASSWORD = 'correct horse battery';

let desk: AlarmDesk | undefined;
let queue: AlarmQueue | undefined;
const receivers: SmtpReceiver[] = [];
const cleanups: (() => void)[] = [];
afterEach(async () => {
  await closeMailTest(queue, receivers, desk);
  queue = undefined;
  desk = undefined;
  for (const cleanup of cleanups.splice(0)) cleanup();
});

/** A relay with the test certificate that takes the login alarms / PASSWORD only; `secure`: implicit TLS, else STARTTLS (unless `noStartTls`). */
async function tlsRelay(mode: { secure: boolean; noStartTls?: boolean }): Promise<SmtpReceiver> {
  const receiver = await startSmtpReceiver(0, {
    secure: mode.secure,
    key: TEST_RELAY_KEY,
    cert: TEST_RELAY_CERT,
    disabledCommands: mode.noStartTls ? ['STARTTLS'] : [],
    onAuth(auth, _session, callback) {
      if (auth.username === 'alarms' && auth.password === PASSWORD) callback(null, { user: auth.username });
      else callback(new Error('Invalid username or password'));
    },
  });
  receivers.push(receiver);
  return receiver;
}

const settings = (port: number, security: SmtpRecord['security']): SmtpRecord => ({
  host: '127.0.0.1',
  port,
  security,
  user: 'alarms',
  from: 'alarms@acme.example',
  appUrl: 'http://desk.acme.example:4317',
});

/** A desk whose relay is at `port`, a rule that mails qa@acme.example, and a report whose alert the caller makes rise with `rise`. */
function deskWithRelay(port: number, security: SmtpRecord['security']): { d: AlarmDesk; rise: () => void } {
  const d = openAlarmDesk();
  d.service.alarms.saveSmtp(null, { ...settings(port, security), password: PASSWORD });
  d.service.putReport(calmReport('r1'), { kind: 'import' });
  d.service.alarms.createRule(d.acme, 'acme', alarmRuleBodySchema.parse({ name: 'Warm', minLevel: 1, steps: [{ emails: ['qa@acme.example'] }], channels: ['email'] }));
  return { d, rise: () => d.service.intake.tap(d.acme, 'r1', readingsAfter(4, ONE_WARM)) };
}

describe('the relay over TLS', () => {
  test('implicit TLS delivers an alarm mail, logged in with the relay’s user and password', async () => {
    const receiver = await tlsRelay({ secure: true });
    const { d, rise } = deskWithRelay(receiver.port, 'tls');
    desk = d;
    queue = d.service.deliverAlarms({ schedule: FAST_RETRIES, relay: { ca: TEST_RELAY_CERT } });
    rise();
    const [mail] = await receiver.received(1);
    expect(mail).toMatchObject({ secure: true, user: 'alarms', to: ['qa@acme.example'], subject: 'Moderate alarm: REF-r1' });
    await until(() => d.service.alarms.deliveries(d.acme, 1, 10).deliveries[0]?.status === 'succeeded');
  });

  test('STARTTLS delivers; a wrong password is refused in words', async () => {
    const receiver = await tlsRelay({ secure: false });
    const sent = await sendTestMail(settings(receiver.port, 'starttls'), PASSWORD, 'qa@acme.example', { ca: TEST_RELAY_CERT });
    expect(sent).toMatchObject({ ok: true, message: expect.stringMatching(/^the relay took the mail to qa@acme\.example: 250 /) });
    expect(receiver.mails).toHaveLength(1);
    expect(receiver.mails[0]).toMatchObject({ secure: true, user: 'alarms', subject: 'LabelDesk test e-mail' });

    const refused = await sendTestMail(settings(receiver.port, 'starttls'), 'wrong', 'qa@acme.example', { ca: TEST_RELAY_CERT });
    expect(refused).toEqual({
      ok: false,
      messageId: null,
      message: `the SMTP relay 127.0.0.1:${receiver.port} refused the login of 'alarms': 535 Invalid username or password`,
    });
    expect(receiver.mails).toHaveLength(1);
  });

  test('a relay that offers no STARTTLS when the settings require it gets nothing, and the log says why', async () => {
    const receiver = await tlsRelay({ secure: false, noStartTls: true });
    const { d, rise } = deskWithRelay(receiver.port, 'starttls');
    desk = d;
    queue = d.service.deliverAlarms({ schedule: FAST_RETRIES, relay: { ca: TEST_RELAY_CERT } });
    rise();
    const failed = await until(() => d.service.alarms.deliveries(d.acme, 1, 50).deliveries.find((x) => x.status === 'failed'));
    expect(failed.error).toBe(
      `the SMTP relay 127.0.0.1:${receiver.port} does not offer STARTTLS, which the relay's settings require: 500 Error: command not recognized`,
    );
    await queue.stop(0);
    queue = undefined;
    expect(receiver.seen).toHaveLength(0);
  });

  test.each(['tls', 'starttls'] as const)('%s: a certificate this desk does not trust is refused in words, and delivers once named in LABELDESK_SMTP_CA_FILE', async (security) => {
    const receiver = await tlsRelay({ secure: security === 'tls' });
    const { d, rise } = deskWithRelay(receiver.port, security);
    desk = d;
    queue = d.service.deliverAlarms({ schedule: FAST_RETRIES });
    rise();
    const failed = await until(() => d.service.alarms.deliveries(d.acme, 1, 50).deliveries.find((x) => x.status === 'failed'));
    expect(failed.error).toBe(
      `the SMTP relay 127.0.0.1:${receiver.port} showed a certificate this desk does not trust (self-signed certificate): name the relay's certificate or its CA in ${SMTP_CA_FILE_ENV} to trust it`,
    );
    await queue.stop(0);
    queue = undefined;
    expect(receiver.seen).toHaveLength(0);

    const dir = mkdtempSync(join(tmpdir(), 'labeldesk-relay-ca-'));
    const file = join(dir, 'relay.pem');
    writeFileSync(file, TEST_RELAY_CERT);
    const before = process.env[SMTP_CA_FILE_ENV];
    process.env[SMTP_CA_FILE_ENV] = file;
    cleanups.push(() => {
      if (before === undefined) delete process.env[SMTP_CA_FILE_ENV];
      else process.env[SMTP_CA_FILE_ENV] = before;
      rmSync(dir, { recursive: true, force: true });
    });
    queue = d.service.deliverAlarms({ schedule: FAST_RETRIES });
    const [mail] = await receiver.received(1);
    expect(mail).toMatchObject({ secure: true, user: 'alarms' });
  });

  test('a relay that speaks plain SMTP where TLS is set is refused in words', async () => {
    const plain = await startSmtpReceiver();
    receivers.push(plain);
    const sent = await sendTestMail(settings(plain.port, 'tls'), PASSWORD, 'qa@acme.example', { ca: TEST_RELAY_CERT });
    expect(sent).toEqual({
      ok: false,
      messageId: null,
      message: `the SMTP relay 127.0.0.1:${plain.port} does not answer in TLS: its port may take STARTTLS or plain SMTP instead`,
    });
    expect(plain.seen).toHaveLength(0);
  });

  test('a certificate file that cannot be read is named in the refusal', async () => {
    const missing = join(tmpdir(), 'labeldesk-no-such-dir', 'relay.pem');
    expect(trustFromEnvironment({ [SMTP_CA_FILE_ENV]: missing }).error).toMatch(
      new RegExp(`^${SMTP_CA_FILE_ENV}: cannot read the certificates in ${missing.replace(/[.]/g, '\\.')}: ENOENT`),
    );
    expect(trustFromEnvironment({})).toEqual({});
    const before = process.env[SMTP_CA_FILE_ENV];
    process.env[SMTP_CA_FILE_ENV] = missing;
    try {
      const sent = await sendTestMail(settings(1, 'tls'), PASSWORD, 'qa@acme.example');
      expect(sent).toMatchObject({ ok: false, message: expect.stringMatching(new RegExp(`^${SMTP_CA_FILE_ENV}: cannot read`)) });
    } finally {
      if (before === undefined) delete process.env[SMTP_CA_FILE_ENV];
      else process.env[SMTP_CA_FILE_ENV] = before;
    }
  });
});
