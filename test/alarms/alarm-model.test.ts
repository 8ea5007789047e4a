/** The pure reckonings of alarms: when levels raise one, quiet hours, the digest's hour, and what the desktop announces. */
import { describe, expect, test } from 'vitest';
import { decideNotifications } from '../../contract/alarm-notices';
import { nextDailyAt, quietUntil, raisesAlarm } from '../../model/alarm';

describe('raisesAlarm', () => {
  test('a level that rises to at least the rule’s least level', () => {
    expect(raisesAlarm(1, -1, 1)).toBe(true);
    expect(raisesAlarm(1, 0, 2)).toBe(true);
    expect(raisesAlarm(1, 1, 2)).toBe(true);
    expect(raisesAlarm(2, 0, 1)).toBe(false);
    expect(raisesAlarm(1, 2, 2)).toBe(false);
    expect(raisesAlarm(1, 2, 1)).toBe(false);
  });
});

describe('quiet hours', () => {
  const night = { from: '22:00', to: '06:00' };
  test('across midnight, in the company’s zone', () => {
    expect(quietUntil(new Date('2026-06-01T19:59:00Z'), 'Europe/Berlin', night)).toBeNull();
    expect(quietUntil(new Date('2026-06-01T20:00:00Z'), 'Europe/Berlin', night)?.toISOString()).toBe('2026-06-02T04:00:00.000Z');
    expect(quietUntil(new Date('2026-06-02T03:59:30Z'), 'Europe/Berlin', night)?.toISOString()).toBe('2026-06-02T04:00:00.000Z');
    expect(quietUntil(new Date('2026-06-02T04:00:00Z'), 'Europe/Berlin', night)).toBeNull();
  });
  test('within one day, and none', () => {
    expect(quietUntil(new Date('2026-06-01T12:30:00Z'), 'UTC', { from: '12:00', to: '13:00' })?.toISOString()).toBe('2026-06-01T13:00:00.000Z');
    expect(quietUntil(new Date('2026-06-01T13:00:00Z'), 'UTC', { from: '12:00', to: '13:00' })).toBeNull();
    expect(quietUntil(new Date('2026-06-01T12:30:00Z'), 'UTC', null)).toBeNull();
  });
});

describe('nextDailyAt', () => {
  test('the next time the wall clock reads the hour, never now', () => {
    expect(nextDailyAt(new Date('2026-06-01T05:00:00Z'), 'UTC', '07:00').toISOString()).toBe('2026-06-01T07:00:00.000Z');
    expect(nextDailyAt(new Date('2026-06-01T07:00:00Z'), 'UTC', '07:00').toISOString()).toBe('2026-06-02T07:00:00.000Z');
    expect(nextDailyAt(new Date('2026-06-01T05:00:00Z'), 'America/New_York', '07:00').toISOString()).toBe('2026-06-01T11:00:00.000Z');
  });
});

describe('decideNotifications', () => {
  const alarm = (id: string, level: 1 | 2, created: string) => ({ id, reportId: `r-${id}`, labelReference: `REF-${id}`, level, excursion: `excursion of ${id}`, created });

  test('nothing is announced at the first look; the badge counts what is open', () => {
    const decision = decideNotifications({ alarms: [alarm('a', 2, '2026-06-01T10:00:00Z')], seen: new Set(), firstLook: true });
    expect(decision).toEqual({ notices: [], badge: 1, seen: new Set(['a']) });
  });

  test('each new alarm once, naming the report, the level and the excursion; acknowledged ones leave the badge', () => {
    const first = decideNotifications({ alarms: [alarm('a', 1, '2026-06-01T10:00:00Z')], seen: new Set(), firstLook: false });
    expect(first.notices).toEqual([{ alarmId: 'a', reportId: 'r-a', title: 'Moderate alarm: REF-a', body: 'excursion of a' }]);
    const again = decideNotifications({ alarms: [alarm('a', 1, '2026-06-01T10:00:00Z')], seen: first.seen, firstLook: false });
    expect(again.notices).toEqual([]);
    const after = decideNotifications({ alarms: [], seen: again.seen, firstLook: false });
    expect(after).toEqual({ notices: [], badge: 0, seen: new Set() });
  });

  test('many at once: the critical and newest first, the rest summed up in one notice', () => {
    const alarms = [alarm('a', 1, '2026-06-01T10:00:00Z'), alarm('b', 2, '2026-06-01T09:00:00Z'), alarm('c', 1, '2026-06-01T11:00:00Z'), alarm('d', 1, '2026-06-01T08:00:00Z')];
    const decision = decideNotifications({ alarms, seen: new Set(), firstLook: false, max: 3 });
    expect(decision.notices.map((n) => n.title)).toEqual(['Critical alarm: REF-b', 'Moderate alarm: REF-c', '2 more alarms']);
    expect(decision.notices[2].body).toBe('REF-a, REF-d');
    expect(decision.badge).toBe(4);
  });
});
