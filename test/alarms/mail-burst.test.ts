/**
 * Alarm e-mails in numbers, through a real SMTP server on loopback: a burst mailed by a queue
 * that records attempts together with its next claims goes out once per mail, in the order
 * the alarms were raised; the pooled connection comes back after the relay drops it; a mail is
 * written in one piece when its addresses are plain and by nodemailer otherwise, both read the
 * same; and a rule another process adds is heeded by the running service's next change.
 */
import { afterEach, describe, expect, test } from 'vitest';
import type { AlarmQueue } from '../../alarms/alarm-queue';
import { openService } from '../../host/open-service';
import { alarmRuleBodySchema } from '../../schema/alarms';
import { calmReport, ONE_WARM, openAlarmDesk, readingsAfter, type AlarmDesk, closeMailTest, FAST_RETRIES, relayAt } from './alarm-fixture';
import { startSmtpReceiver, until, type SmtpReceiver } from './smtp-receiver';


let desk: AlarmDesk | undefined;
let queue: AlarmQueue | undefined;
const receivers: SmtpReceiver[] = [];
afterEach(async () => {
  await closeMailTest(queue, receivers, desk);
  queue = undefined;
  desk = undefined;
});

/** A clock a second further at each look: alarms raised one after another are due one after another. */
function ticking(): () => Date {
  let at = Date.parse('2026-06-02T08:00:00.000Z');
  return () => new Date((at += 1000));
}

/** The mail's subject as a reader shows it: the header unfolded, its RFC 2047 words decoded. */
function subjectOf(raw: string): string {
  const headers = raw.split(/\r?\n\r?\n/)[0].replace(/\r?\n[ \t]+/g, ' ');
  const value = /^Subject:\s*(.*)$/im.exec(headers)?.[1] ?? '';
  // Space between two encoded words is no part of the text; beside plain words it is.
  return value.replace(/\?=\s+=\?/g, '?==?').replace(/=\?UTF-8\?([QB])\?([^?]*)\?=/gi, (_, how: string, text: string) =>
    (how.toUpperCase() === 'B'
      ? Buffer.from(text, 'base64')
      : Buffer.from(text.replace(/_/g, ' ').replace(/=([0-9A-F]{2})/gi, (_m, hex: string) => String.fromCharCode(parseInt(hex, 16))), 'latin1')
    ).toString('utf8'),
  );
}

describe('alarm e-mails in a burst', () => {
  test.each([1, 16])('with %i in flight, each mail goes once, in the order raised, and the log lists each attempt', async (concurrency) => {
    desk = openAlarmDesk({ now: ticking() });
    const { service, acme } = desk;
    const receiver = await startSmtpReceiver();
    receivers.push(receiver);
    relayAt(desk, receiver.port);
    const ids = Array.from({ length: 24 }, (_, i) => `r${String(i).padStart(2, '0')}`);
    for (const id of ids) service.putReport(calmReport(id), { kind: 'import' });
    service.alarms.createRule(acme, 'acme', alarmRuleBodySchema.parse({ name: 'Warm', minLevel: 1, steps: [{ emails: ['qa@acme.example'] }], channels: ['email'] }));
    for (const id of ids) service.intake.tap(acme, id, readingsAfter(4, ONE_WARM));

    queue = service.deliverAlarms({ schedule: FAST_RETRIES, concurrency });
    await receiver.received(ids.length);
    const log = await until(() => {
      const entries = service.alarms.deliveries(acme, 1, 100).deliveries;
      return entries.length === ids.length && entries.every((d) => d.status === 'succeeded') && entries;
    });
    await queue.stop();
    queue = undefined;

    expect(receiver.mails).toHaveLength(ids.length);
    expect(new Set(receiver.mails.map((m) => m.messageId)).size).toBe(ids.length);
    expect(log.map((d) => d.attempt)).toEqual(ids.map(() => 1));
    expect(new Set(log.map((d) => `<${d.jobId}@labeldesk.invalid>`))).toEqual(new Set(receiver.mails.map((m) => m.messageId)));
    // One at a time, the claims keep the order the alarms were raised in.
    if (concurrency === 1) expect(receiver.mails.map((m) => m.subject)).toEqual(ids.map((id) => `Moderate alarm: REF-${id}`));
  });

  test('the pooled connection comes back after the relay drops it: the next mail goes once', async () => {
    desk = openAlarmDesk();
    const { service, acme } = desk;
    const first = await startSmtpReceiver();
    relayAt(desk, first.port);
    service.putReport(calmReport('r1'), { kind: 'import' });
    service.putReport(calmReport('r2'), { kind: 'import' });
    service.alarms.createRule(acme, 'acme', alarmRuleBodySchema.parse({ name: 'Warm', minLevel: 1, steps: [{ emails: ['qa@acme.example'] }], channels: ['email'] }));
    queue = service.deliverAlarms({ schedule: FAST_RETRIES });
    service.intake.tap(acme, 'r1', readingsAfter(4, ONE_WARM));
    await first.received(1);
    await until(() => service.alarms.deliveries(acme, 1, 10).deliveries[0]?.status === 'succeeded');
    // The relay goes away with the pool's open connection, and comes back on its port.
    await first.close();
    const second = await startSmtpReceiver(first.port);
    receivers.push(second);

    service.intake.tap(acme, 'r2', readingsAfter(4, ONE_WARM));
    const [mail] = await second.received(1);
    expect(mail.subject).toBe('Moderate alarm: REF-r2');
    const log = await until(() => {
      const entries = service.alarms.deliveries(acme, 1, 10).deliveries;
      return entries.filter((d) => d.status === 'succeeded').length === 2 && entries.every((d) => d.status !== 'pending') && entries;
    });
    await queue.stop();
    queue = undefined;
    expect(first.mails).toHaveLength(1);
    expect(second.mails).toHaveLength(1);
    // A send that met the dropped connection is a failure retried, never a mail lost or sent twice.
    for (const failed of log.filter((d) => d.status === 'failed')) expect(failed.error).toMatch(/SMTP relay/);
  });

  test('a mail with plain addresses and one whose sender has a name read the same; words beyond ASCII survive', async () => {
    desk = openAlarmDesk();
    const { service, acme } = desk;
    const receiver = await startSmtpReceiver();
    receivers.push(receiver);
    service.putReport(calmReport('r1', { labelReference: 'Ládung “Nord” 17' }), { kind: 'import' });
    service.putReport(calmReport('r2', { labelReference: 'Ládung “Süd” 18' }), { kind: 'import' });
    service.alarms.createRule(acme, 'acme', alarmRuleBodySchema.parse({ name: 'Wärme', minLevel: 1, steps: [{ emails: ['qa@acme.example', 'lead@acme.example'] }], channels: ['email'] }));
    relayAt(desk, receiver.port);
    queue = service.deliverAlarms({ schedule: FAST_RETRIES });
    service.intake.tap(acme, 'r1', readingsAfter(4, ONE_WARM));
    const [plain] = await receiver.received(1);
    await until(() => service.alarms.deliveries(acme, 1, 10).deliveries[0]?.status === 'succeeded');
    relayAt(desk, receiver.port, 'LabelDesk Alarme <alarms@acme.example>');
    service.intake.tap(acme, 'r2', readingsAfter(4, ONE_WARM));
    const [, named] = await receiver.received(2);

    for (const [mail, reference] of [
      [plain, 'Ládung “Nord” 17'],
      [named, 'Ládung “Süd” 18'],
    ] as const) {
      expect(mail.from).toBe('alarms@acme.example');
      expect(mail.to.sort()).toEqual(['lead@acme.example', 'qa@acme.example']);
      expect(subjectOf(mail.raw)).toBe(`Moderate alarm: ${reference}`);
      expect(mail.messageId).toMatch(/^<mail_[0-9a-f]+@labeldesk\.invalid>$/);
      expect(mail.raw).toMatch(/^Auto-Submitted: auto-generated$/im);
      expect(mail.raw).toMatch(/Content-Type: multipart\/alternative/i);
      expect(mail.raw).toMatch(/Content-Type: text\/html/i);
      expect(mail.text).toContain(`alert on label report ${reference}.`);
      expect(mail.text).toContain('by the rule “Wärme”.');
      expect(mail.text).toContain('<a href="http://desk.acme.example:4317/?report=');
    }
    // The plain one is written in one piece by the desk (its boundary), the named one by nodemailer.
    expect(plain.raw).toContain('boundary="--_=_labeldesk_');
    expect(named.raw).not.toContain('_=_labeldesk_');
    expect(named.raw).toMatch(/^From: LabelDesk Alarme <alarms@acme\.example>$/im);
  });

  test('a rule another process adds is heeded by the running service at its next change', async () => {
    desk = openAlarmDesk();
    const { service, acme } = desk;
    service.putReport(calmReport('r1'), { kind: 'import' });
    service.putReport(calmReport('r2'), { kind: 'import' });
    // Read once with no rule: the service has seen the rules as they were.
    service.intake.tap(acme, 'r1', readingsAfter(4, ONE_WARM));
    expect(service.alarms.list(acme, { pageNumber: 1, pageSize: 10 }).totalDocuments).toBe(0);

    const other = openService(desk.dbFile);
    other.alarms.createRule(null, 'acme', alarmRuleBodySchema.parse({ name: 'Warm', minLevel: 1, steps: [{ emails: ['qa@acme.example'] }], channels: ['email'] }));
    other.close();

    service.intake.tap(acme, 'r2', readingsAfter(4, ONE_WARM));
    const alarms = service.alarms.list(acme, { pageNumber: 1, pageSize: 10 }).alarms;
    expect(alarms.map((a) => a.reportId)).toEqual(['r2']);
  });
});
