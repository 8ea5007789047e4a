/**
 * The desktop's alarm notifications against a real service: nothing at the first look (the
 * badge counts), then one notification per new alarm naming the report, the level and the
 * excursion, whose click opens the report; the badge falls when the alarm is acknowledged.
 */
import { afterEach, describe, expect, test } from 'vitest';
import { AlarmNotifier, type NotificationLike } from '../../main/alarm-notifier';
import { alarmRuleBodySchema } from '../../schema/alarms';
import { startTestService, type TestService } from '../support/service-fixture';
import { ALL, calmReport, HOUR_WARM, ONE_WARM, readingsAfter } from '../alarms/alarm-fixture';

let svc: TestService | undefined;
afterEach(async () => {
  await svc?.stop();
  svc = undefined;
});

/** Electron's Notification as the notifier uses it: what was shown, and a click. */
class ShownNotification implements NotificationLike {
  static shown: ShownNotification[] = [];
  private onClick: (() => void) | undefined;
  constructor(readonly options: { title: string; body: string }) {}
  on(_event: 'click', listener: () => void) {
    this.onClick = listener;
    return this;
  }
  show() {
    ShownNotification.shown.push(this);
  }
  click() {
    this.onClick?.();
  }
}

describe('AlarmNotifier', () => {
  test('announces each new alarm once, opens its report on a click, and keeps the badge at the count', async () => {
    svc = await startTestService([calmReport('r1'), calmReport('r2')]);
    const { service } = svc;
    const tool = service.apiKeys.authenticate(service.apiKeys.create('acme', [...ALL, 'labelReports:create'], 'tool').key);
    service.alarms.createRule(tool, 'acme', alarmRuleBodySchema.parse({ name: 'Any', minLevel: 1, steps: [{ emails: [] }], channels: ['desktop'] }));
    service.intake.tap(tool, 'r1', readingsAfter(4, ONE_WARM));

    const opened: string[] = [];
    const badges: number[] = [];
    const notifier = new AlarmNotifier({
      baseUrl: svc.url,
      sessionKey: svc.keys.acme,
      createNotification: (options) => new ShownNotification(options),
      openReport: (id) => opened.push(id),
      setBadge: (n) => badges.push(n),
    });
    expect(await notifier.poll()).toEqual([]);
    expect(badges).toEqual([1]);

    service.intake.tap(tool, 'r2', readingsAfter(4, HOUR_WARM));
    const notices = await notifier.poll();
    expect(notices.map((n) => n.title)).toEqual(['Critical alarm: REF-r2']);
    expect(ShownNotification.shown.map((n) => n.options.title)).toEqual(['Critical alarm: REF-r2']);
    expect(ShownNotification.shown[0].options.body).toMatch(/Critical/);
    ShownNotification.shown[0].click();
    expect(opened).toEqual(['r2']);
    expect(await notifier.poll()).toEqual([]);

    service.reviews.acknowledge(tool, 'r1', { note: 'seen' });
    service.reviews.acknowledge(tool, 'r2', { note: 'seen' });
    await notifier.poll();
    expect(badges).toEqual([1, 2, 2, 0]);
  });
});
