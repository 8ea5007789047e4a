/**
 * Alarm e-mails through a real SMTP server on loopback: recipients, subject and the link that
 * opens the report; a relay that is down and then up gets the mail once; a mail whose alarm was
 * acknowledged before it went out is not sent.
 */
import { afterEach, describe, expect, test } from 'vitest';
import type { AlarmQueue } from '../../alarms/alarm-queue';
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

describe('alarm e-mails', () => {
  test('a mail to the step’s people and addresses names the report, the level and links to it', async () => {
    desk = openAlarmDesk();
    const { service, acme } = desk;
    const receiver = await startSmtpReceiver();
    receivers.push(receiver);
    relayAt(desk, receiver.port);
    const anna = service.users.create(null, 'acme', { login: 'anna', name: 'Anna Berg', role: 'reviewer', password: 'correct horse battery' });
    service.alarms.setEmail(null, 'acme', 'anna', 'anna@acme.example');
    service.putReport(calmReport('r1'), { kind: 'import' });
    service.alarms.createRule(
      acme,
      'acme',
      alarmRuleBodySchema.parse({ name: 'Warm', minLevel: 1, steps: [{ users: [anna.id], emails: ['qa@acme.example'] }], channels: ['email', 'desktop'] }),
    );
    queue = service.deliverAlarms({ schedule: FAST_RETRIES });
    service.intake.tap(acme, 'r1', readingsAfter(4, ONE_WARM));

    const [mail] = await receiver.received(1);
    expect(mail.to.sort()).toEqual(['anna@acme.example', 'qa@acme.example']);
    expect(mail.from).toBe('alarms@acme.example');
    expect(mail.subject).toBe('Moderate alarm: REF-r1');
    expect(mail.text).toContain('Open the report to read it and acknowledge the alert: http://desk.acme.example:4317/?report=r1');
    expect(mail.text).toContain('<a href="http://desk.acme.example:4317/?report=r1">');
    expect(mail.text).toMatch(/readings were out of limits for 10 min/);
    expect(mail.raw).toMatch(/Content-Type: text\/html/i);
    expect(mail.messageId).toMatch(/^<mail_[0-9a-f]+@labeldesk\.invalid>$/);

    const [alarm] = await until(() => {
      const alarms = service.alarms.list(acme, { pageNumber: 1, pageSize: 10 }).alarms;
      return alarms[0]?.notices.some((n) => n.channel === 'email') && alarms;
    });
    expect(alarm.notices.map((n) => `${n.channel}:${n.recipient}`).sort()).toEqual(
      ['desktop:Anna Berg (anna)', 'email:anna@acme.example', 'email:qa@acme.example'].sort(),
    );
    const log = service.alarms.deliveries(acme, 1, 10).deliveries;
    expect(log).toEqual([expect.objectContaining({ status: 'succeeded', attempt: 1, alarmId: alarm.id, reply: expect.stringMatching(/^250/) })]);
  });

  test('the delivery log keeps 30 days: older attempts go when the queue next looks', async () => {
    const skew = { ms: 0 };
    desk = openAlarmDesk({ now: () => new Date(Date.now() + skew.ms) });
    const { service, acme } = desk;
    const receiver = await startSmtpReceiver();
    receivers.push(receiver);
    relayAt(desk, receiver.port);
    service.putReport(calmReport('r1'), { kind: 'import' });
    service.putReport(calmReport('r2'), { kind: 'import' });
    service.alarms.createRule(acme, 'acme', alarmRuleBodySchema.parse({ name: 'Warm', minLevel: 1, steps: [{ emails: ['qa@acme.example'] }], channels: ['email'] }));
    queue = service.deliverAlarms({ schedule: FAST_RETRIES });
    service.intake.tap(acme, 'r1', readingsAfter(4, ONE_WARM));
    await receiver.received(1);
    // The relay's yes reaches the receiver before the queue: until the attempt is recorded the
    // log lists the job as pending, and a stop then would give its lease back unrecorded, so
    // the mail would go again (the same Message-ID) 31 days later, a fresh attempt no prune
    // could remove.
    const first = await until(() => {
      const log = service.alarms.deliveries(acme, 1, 10).deliveries;
      return log.length === 1 && log[0].status === 'succeeded' && log;
    });
    await queue.stop(0);

    skew.ms = 31 * 24 * 60 * 60 * 1000;
    service.intake.tap(acme, 'r2', readingsAfter(4, ONE_WARM));
    queue = service.deliverAlarms({ schedule: FAST_RETRIES });
    await receiver.received(2);
    const log = await until(() => {
      const entries = service.alarms.deliveries(acme, 1, 10).deliveries;
      return entries.some((d) => d.status === 'succeeded' && d.jobId !== first[0].jobId) && entries;
    });
    expect(log.map((d) => d.jobId)).not.toContain(first[0].jobId);
    expect(log).toHaveLength(1);
    expect(receiver.mails.map((m) => m.messageId)).toEqual([`<${first[0].jobId}@labeldesk.invalid>`, expect.not.stringContaining(first[0].jobId)]);
  });

  test('a relay that is down and then up gets the mail once, after failures the log names', async () => {
    desk = openAlarmDesk();
    const { service, acme } = desk;
    const probe = await startSmtpReceiver();
    const port = probe.port;
    await probe.close();
    relayAt(desk, port);
    service.putReport(calmReport('r1'), { kind: 'import' });
    service.alarms.createRule(acme, 'acme', alarmRuleBodySchema.parse({ name: 'Warm', minLevel: 1, steps: [{ emails: ['qa@acme.example'] }], channels: ['email'] }));
    queue = service.deliverAlarms({ schedule: FAST_RETRIES });
    service.intake.tap(acme, 'r1', readingsAfter(4, ONE_WARM));

    const failed = await until(() => service.alarms.deliveries(acme, 1, 50).deliveries.find((d) => d.status === 'failed'));
    expect(failed.error).toBe(`could not reach the SMTP relay 127.0.0.1:${port}: connect ECONNREFUSED 127.0.0.1:${port}`);

    const receiver = await startSmtpReceiver(port);
    receivers.push(receiver);
    await receiver.received(1);
    await until(() => service.alarms.deliveries(acme, 1, 50).deliveries.some((d) => d.status === 'succeeded'));
    await queue.stop();
    queue = undefined;
    expect(receiver.mails).toHaveLength(1);
    const log = service.alarms.deliveries(acme, 1, 50).deliveries;
    expect(log.filter((d) => d.status === 'succeeded')).toHaveLength(1);
    expect(log.filter((d) => d.status === 'pending')).toHaveLength(0);
  });

  test('a mail whose alarm was acknowledged before it went out is not sent', async () => {
    desk = openAlarmDesk();
    const { service, acme } = desk;
    const receiver = await startSmtpReceiver();
    receivers.push(receiver);
    relayAt(desk, receiver.port);
    service.putReport(calmReport('r1'), { kind: 'import' });
    service.alarms.createRule(acme, 'acme', alarmRuleBodySchema.parse({ name: 'Warm', minLevel: 1, steps: [{ emails: ['qa@acme.example'] }], channels: ['email'] }));
    service.intake.tap(acme, 'r1', readingsAfter(4, ONE_WARM));
    service.reviews.acknowledge(acme, 'r1', { note: 'seen' });
    expect(service.alarms.list(acme, { pageNumber: 1, pageSize: 10 }).alarms[0]).toMatchObject({ state: 'acknowledged', acknowledged: { by: 'acme tool' } });

    queue = service.deliverAlarms({ schedule: FAST_RETRIES });
    await until(() => service.alarms.deliveries(acme, 1, 10).deliveries[0]?.status === 'cancelled');
    expect(receiver.seen).toHaveLength(0);
    expect(service.alarms.list(acme, { pageNumber: 1, pageSize: 10 }).unacknowledged).toBe(0);
  });
});
