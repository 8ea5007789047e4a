/**
 * An escalation when the wall clock steps (docs/operations.md#the-clock-steps), on the running
 * service's own queue and a real SMTP receiver, with both clocks in the test's hand (a step moves
 * the wall clock alone): its minutes are counted on the monotonic clock, so a step back does not
 * hold it for hours and a step forward does not tell it at once; it is told once, on time.
 */
import { afterEach, describe, expect, test } from 'vitest';
import type { AlarmQueue } from '../../alarms/alarm-queue';
import { alarmRuleBodySchema } from '../../schema/alarms';
import { RetrySchedule } from '../../webhooks/retry-schedule';
import { calmReport, ONE_WARM, openAlarmDesk, readingsAfter, type AlarmDesk } from './alarm-fixture';
import { startSmtpReceiver, type SmtpReceiver } from './smtp-receiver';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

let desk: AlarmDesk | undefined;
let receiver: SmtpReceiver | undefined;
let queue: AlarmQueue | undefined;
afterEach(async () => {
  await queue?.stop(0);
  queue = undefined;
  await receiver?.close();
  receiver = undefined;
  desk?.close();
  desk = undefined;
});

async function deskAt(start: string) {
  let wall = new Date(start).getTime();
  let monotonic = 5_000;
  desk = openAlarmDesk({ now: () => new Date(wall), monotonic: () => monotonic });
  receiver = await startSmtpReceiver();
  desk.service.alarms.saveSmtp(null, { host: '127.0.0.1', port: receiver.port, security: 'none', user: null, from: 'alarms@acme.example', appUrl: 'http://desk:4317' });
  desk.service.putReport(calmReport('r1'), { kind: 'import' });
  desk.service.alarms.createRule(
    desk.acme,
    'acme',
    alarmRuleBodySchema.parse({ name: 'Warm', minLevel: 1, steps: [{ emails: ['first@acme.example'] }, { emails: ['second@acme.example'] }], channels: ['email'], escalateAfterMinutes: 30 }),
  );
  // The running service's queue, on its own AlarmService; no idle look of its own meanwhile.
  queue = desk.service.deliverAlarms({ schedule: new RetrySchedule([1], () => 0.5), idleCheckMs: 24 * HOUR });
  const d = desk;
  const r = receiver;
  return {
    raise: () => d.service.intake.tap(d.acme, 'r1', readingsAfter(4, ONE_WARM)),
    pass: (ms: number) => {
      wall += ms;
      monotonic += ms;
    },
    step: (ms: number) => (wall += ms),
    /** Every job due now, then those their work made due (an escalation's mail). */
    drain: async () => {
      await queue!.drain();
      await queue!.drain();
    },
    told: () => r.mails.map((m) => m.to[0]),
    alarm: () => d.service.alarms.list(d.acme, { pageNumber: 1, pageSize: 5 }).alarms[0],
  };
}

describe('an escalation when the wall clock steps', () => {
  test('a step back of 3 hours does not hold it: it goes 30 minutes after the alarm, once', async () => {
    const d = await deskAt('2026-06-01T09:00:00.000Z');
    d.raise();
    await d.drain();
    expect(d.told()).toEqual(['first@acme.example']);
    d.pass(10 * MINUTE);
    d.step(-3 * HOUR);
    await d.drain();
    d.pass(19 * MINUTE);
    await d.drain();
    expect(d.told()).toEqual(['first@acme.example']);
    expect(d.alarm()).toMatchObject({ state: 'open', step: 0 });
    d.pass(1 * MINUTE);
    await d.drain();
    expect(d.told()).toEqual(['first@acme.example', 'second@acme.example']);
    // Stored in the wall clock's time of its moment: 09:30 less the 3 hours' step.
    expect(d.alarm()).toMatchObject({ state: 'escalated', step: 1, escalatedAt: '2026-06-01T06:30:00.000Z' });
    // The hours the wall clock now goes through again tell nobody twice.
    d.pass(4 * HOUR);
    await d.drain();
    expect(d.told()).toEqual(['first@acme.example', 'second@acme.example']);
  });

  test('a step forward of 3 hours does not tell it at once: it goes 30 minutes after the alarm', async () => {
    const d = await deskAt('2026-06-01T09:00:00.000Z');
    d.raise();
    await d.drain();
    d.pass(5 * MINUTE);
    d.step(3 * HOUR);
    await d.drain();
    expect(d.told()).toEqual(['first@acme.example']);
    d.pass(24 * MINUTE);
    await d.drain();
    expect(d.told()).toEqual(['first@acme.example']);
    d.pass(1 * MINUTE);
    await d.drain();
    expect(d.told()).toEqual(['first@acme.example', 'second@acme.example']);
    expect(d.alarm()).toMatchObject({ state: 'escalated', step: 1, escalatedAt: '2026-06-01T12:30:00.000Z' });
  });
});
