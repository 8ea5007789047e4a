/**
 * Escalation, quiet hours and the daily digest, driven by an injectable clock: the queue is
 * drained at chosen moments, so what is due is decided by the clock alone.
 */
import { afterEach, describe, expect, test } from 'vitest';
import { AlarmQueue } from '../../alarms/alarm-queue';
import { DataStore } from '../../db/data-store';
import { AlarmService } from '../../service/alarms';
import { alarmRuleBodySchema, alarmSettingsSchema } from '../../schema/alarms';
import { RetrySchedule } from '../../webhooks/retry-schedule';
import { calmReport, ONE_WARM, openAlarmDesk, readingsAfter, type AlarmDesk } from './alarm-fixture';
import { startSmtpReceiver, type SmtpReceiver } from './smtp-receiver';

const MINUTE = 60_000;

let desk: AlarmDesk | undefined;
let receiver: SmtpReceiver | undefined;
let data: DataStore | undefined;
let queue: AlarmQueue | undefined;
afterEach(async () => {
  // Closes the relay's pooled connections, which the receiver's close would wait for.
  await queue?.stop(0);
  queue = undefined;
  data?.close();
  data = undefined;
  await receiver?.close();
  receiver = undefined;
  desk?.close();
  desk = undefined;
});

/** The service and a queue of its own connection, both on `clock`. */
async function deskAt(start: string) {
  let clock = new Date(start);
  const now = () => clock;
  desk = openAlarmDesk({ now });
  receiver = await startSmtpReceiver();
  desk.service.alarms.saveSmtp(null, { host: '127.0.0.1', port: receiver.port, security: 'none', user: null, from: 'alarms@acme.example', appUrl: 'http://desk:4317' });
  desk.service.putReport(calmReport('r1'), { kind: 'import' });
  data = DataStore.open(desk.dbFile);
  queue = new AlarmQueue(data, new AlarmService(data, now), { now, schedule: new RetrySchedule([1], () => 0.5) });
  return {
    service: desk.service,
    acme: desk.acme,
    receiver,
    advance: (ms: number) => (clock = new Date(clock.getTime() + ms)),
    set: (iso: string) => (clock = new Date(iso)),
    /** Every job due at the clock's time, then those their work made due (an escalation's mail). */
    drain: async () => {
      await queue!.drain();
      await queue!.drain();
    },
  };
}

describe('escalation', () => {
  test('an alarm nobody acknowledges goes to the next step after the rule’s time; acknowledging stops it', async () => {
    const d = await deskAt('2026-06-01T09:00:00.000Z');
    d.service.alarms.createRule(
      d.acme,
      'acme',
      alarmRuleBodySchema.parse({
        name: 'Warm',
        minLevel: 1,
        steps: [{ emails: ['first@acme.example'] }, { emails: ['second@acme.example'] }, { emails: ['third@acme.example'] }],
        channels: ['email'],
        escalateAfterMinutes: 120,
      }),
    );
    d.service.intake.tap(d.acme, 'r1', readingsAfter(4, ONE_WARM));
    await d.drain();
    expect(d.receiver.mails.map((m) => m.to)).toEqual([['first@acme.example']]);

    d.advance(119 * MINUTE);
    await d.drain();
    expect(d.receiver.mails).toHaveLength(1);
    expect(d.service.alarms.list(d.acme, { pageNumber: 1, pageSize: 5 }).alarms[0]).toMatchObject({ state: 'open', step: 0 });

    d.advance(1 * MINUTE);
    await d.drain();
    expect(d.receiver.mails.map((m) => m.to)).toEqual([['first@acme.example'], ['second@acme.example']]);
    expect(d.receiver.mails[1].subject).toBe('Moderate alarm: REF-r1 (escalated)');
    const [alarm] = d.service.alarms.list(d.acme, { pageNumber: 1, pageSize: 5, state: 'escalated' }).alarms;
    expect(alarm).toMatchObject({ state: 'escalated', step: 1, escalatedAt: '2026-06-01T11:00:00.000Z' });

    d.advance(30 * MINUTE);
    d.service.reviews.acknowledge(d.acme, 'r1', { note: 'on it' });
    d.advance(300 * MINUTE);
    await d.drain();
    expect(d.receiver.mails).toHaveLength(2);
    expect(d.service.alarms.list(d.acme, { pageNumber: 1, pageSize: 5 }).alarms[0]).toMatchObject({ state: 'acknowledged', step: 1 });
  });

  test('quiet hours hold e-mails until they end', async () => {
    const d = await deskAt('2026-06-01T21:30:00.000Z');
    d.service.alarms.saveSettings(d.acme, 'acme', alarmSettingsSchema.parse({ zone: 'Europe/Berlin', quietHours: { from: '22:00', to: '06:30' } }));
    d.service.alarms.createRule(d.acme, 'acme', alarmRuleBodySchema.parse({ name: 'Warm', minLevel: 1, steps: [{ emails: ['night@acme.example'] }], channels: ['email'] }));
    // 23:30 in Berlin (UTC+2 in June).
    d.service.intake.tap(d.acme, 'r1', readingsAfter(4, ONE_WARM));
    await d.drain();
    expect(d.receiver.mails).toHaveLength(0);
    d.set('2026-06-02T04:29:59.000Z');
    await d.drain();
    expect(d.receiver.mails).toHaveLength(0);
    d.set('2026-06-02T04:30:00.000Z');
    await d.drain();
    expect(d.receiver.mails.map((m) => m.to)).toEqual([['night@acme.example']]);
  });

  test('the daily digest lists the day’s alarms at its hour, and the next one is due a day later', async () => {
    const d = await deskAt('2026-06-01T05:00:00.000Z');
    d.service.alarms.saveSettings(d.acme, 'acme', alarmSettingsSchema.parse({ zone: 'UTC', digest: { at: '07:00', to: ['lead@acme.example'] } }));
    d.service.alarms.createRule(d.acme, 'acme', alarmRuleBodySchema.parse({ name: 'Warm', minLevel: 1, steps: [{ users: [] }], channels: ['desktop'] }));
    d.service.intake.tap(d.acme, 'r1', readingsAfter(4, ONE_WARM));
    await d.drain();
    expect(d.receiver.mails).toHaveLength(0);
    d.set('2026-06-01T07:00:00.000Z');
    await d.drain();
    expect(d.receiver.mails.map((m) => [m.to, m.subject])).toEqual([[['lead@acme.example'], 'LabelDesk alarms 2026-06-01: 1']]);
    expect(d.receiver.mails[0].text).toContain('Moderate · REF-r1 · open · http://desk:4317/?report=r1');
    d.set('2026-06-02T06:59:00.000Z');
    await d.drain();
    expect(d.receiver.mails).toHaveLength(1);
    d.set('2026-06-02T07:00:00.000Z');
    await d.drain();
    expect(d.receiver.mails.map((m) => m.subject)).toEqual(['LabelDesk alarms 2026-06-01: 1', 'LabelDesk alarms 2026-06-02: none']);
  });
});
