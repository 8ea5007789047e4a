/** Webhooks that take `labelReport.alarm` hear of each alarm of their company, with the alarm as its data, signed as any event. */
import { Webhook } from 'standardwebhooks';
import { afterEach, describe, expect, test } from 'vitest';
import type { DeliveryWorker } from '../../webhooks/delivery-worker';
import { alarmRuleBodySchema } from '../../schema/alarms';
import { Receiver } from '../support/webhook-receiver';
import { calmReport, HOUR_WARM, openAlarmDesk, readingsAfter, type AlarmDesk } from './alarm-fixture';

let desk: AlarmDesk | undefined;
let worker: DeliveryWorker | undefined;
let receiver: Receiver | undefined;
afterEach(async () => {
  await worker?.stop(0);
  await receiver?.close();
  desk?.close();
  desk = undefined;
});

describe('labelReport.alarm', () => {
  test('a rule with the webhook channel sends the alarm to the company’s webhooks that take the event, and says so among who was told', async () => {
    desk = openAlarmDesk();
    const { service, acme, nordic } = desk;
    receiver = await Receiver.start();
    const hook = service.webhooks.create(acme, { url: receiver.url('/alarms'), events: ['labelReport.alarm'] });
    service.webhooks.create(acme, { url: receiver.url('/taps'), events: ['labelReport.tapped'] });
    service.webhooks.create(nordic, { url: receiver.url('/nordic'), events: ['labelReport.alarm'] });
    service.putReport(calmReport('r1'), { kind: 'import' });
    service.alarms.createRule(acme, 'acme', alarmRuleBodySchema.parse({ name: 'Hooked', minLevel: 2, steps: [{ emails: [] }], channels: ['webhook'] }));
    worker = service.deliverWebhooks();

    service.intake.tap(acme, 'r1', readingsAfter(4, HOUR_WARM));
    const [delivered] = await receiver.waitFor(1);
    expect(delivered.path).toBe('/alarms');
    const event = new Webhook(hook.secret).verify(delivered.body, delivered.headers as Record<string, string>) as { type: string; data: Record<string, unknown> };
    const [alarm] = service.alarms.list(acme, { pageNumber: 1, pageSize: 5 }).alarms;
    expect(event.type).toBe('labelReport.alarm');
    expect(event.data).toMatchObject({ id: alarm.id, reportId: 'r1', labelReference: 'REF-r1', level: 2, state: 'open', ruleName: 'Hooked', excursion: alarm.excursion });
    expect(alarm.notices).toEqual([expect.objectContaining({ channel: 'webhook', recipient: hook.id })]);
  });
});
