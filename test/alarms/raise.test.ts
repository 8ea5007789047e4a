/**
 * Alarms are raised by the one write path, in the transaction of the change that made the
 * alert rise: once per rule, report and level, only for reports the rule's conditions pick, and
 * never by a change that rolled back.
 */
import { afterEach, describe, expect, test } from 'vitest';
import { DataStore } from '../../db/data-store';
import { ReportWriter } from '../../service/report-writer';
import { AlarmService } from '../../service/alarms';
import { reportFromBundle } from '../../service/report-from-bundle';
import { alarmRuleBodySchema } from '../../schema/alarms';
import { calmReport, HOUR_WARM, ONE_WARM, openAlarmDesk, readingsAfter, type AlarmDesk } from './alarm-fixture';

let desk: AlarmDesk | undefined;
afterEach(() => {
  desk?.close();
  desk = undefined;
});

const rule = (over: Record<string, unknown> = {}) =>
  alarmRuleBodySchema.parse({ name: 'Warm', minLevel: 1, steps: [{ emails: ['qa@acme.example'] }], channels: ['email', 'desktop'], ...over });

describe('raising alarms', () => {
  test('a tap that makes the alert rise raises one alarm per level; a tap that keeps it raises none', () => {
    desk = openAlarmDesk();
    const { service, acme } = desk;
    service.putReport(calmReport('r1'), { kind: 'import' });
    service.alarms.createRule(acme, 'acme', rule());
    expect(service.alarms.list(acme, { pageNumber: 1, pageSize: 10 }).totalDocuments).toBe(0);

    service.intake.tap(acme, 'r1', readingsAfter(4, ONE_WARM));
    let list = service.alarms.list(acme, { pageNumber: 1, pageSize: 10 });
    expect(list.alarms.map((a) => [a.reportId, a.level, a.state, a.cause])).toEqual([['r1', 1, 'open', 'tap']]);
    expect(list.alarms[0].excursion).toMatch(/Moderate/i);
    expect(list.unacknowledged).toBe(1);

    service.intake.tap(acme, 'r1', readingsAfter(5, HOUR_WARM));
    service.intake.tap(acme, 'r1', readingsAfter(12, [11]));
    list = service.alarms.list(acme, { pageNumber: 1, pageSize: 10 });
    expect(list.alarms.map((a) => a.level).sort()).toEqual([1, 2]);
    // The desktop notice names who is told; no person was named, so the company's desks.
    expect(list.alarms[0].notices).toEqual([expect.objectContaining({ channel: 'desktop', recipient: 'the company’s desks', step: 0 })]);
  });

  test('a rule for critical only waits for critical; a rule picks reports by the list’s filter and custom fields', () => {
    desk = openAlarmDesk();
    const { service, acme } = desk;
    service.putReport(calmReport('road'), { kind: 'import' });
    service.putReport(calmReport('air', { mode: 'airFreight' }), { kind: 'import' });
    service.putReport(calmReport('vaccine', { mode: 'airFreight', customFields: [{ customFieldId: 'product', value: 'vaccine' }] }), { kind: 'import' });
    const critical = service.alarms.createRule(acme, 'acme', rule({ name: 'Critical air', minLevel: 2, filter: 'mode[eq]airFreight' }));
    const vaccine = service.alarms.createRule(acme, 'acme', rule({ name: 'Vaccine', customFields: 'product[eq]vaccine' }));

    for (const id of ['road', 'air', 'vaccine']) service.intake.tap(acme, id, readingsAfter(4, ONE_WARM));
    const moderate = service.alarms.list(acme, { pageNumber: 1, pageSize: 10 }).alarms;
    expect(moderate.map((a) => [a.ruleId, a.reportId, a.level])).toEqual([[vaccine.id, 'vaccine', 1]]);

    for (const id of ['road', 'air', 'vaccine']) service.intake.tap(acme, id, readingsAfter(5, HOUR_WARM));
    const all = service.alarms.list(acme, { pageNumber: 1, pageSize: 10 }).alarms;
    expect(all.map((a) => `${a.ruleName}:${a.reportId}:${a.level}`).sort()).toEqual(['Critical air:air:2', 'Critical air:vaccine:2', 'Vaccine:vaccine:2', 'Vaccine:vaccine:1'].sort());
  });

  test('another company’s rule hears only of reports it can see; a disabled rule raises nothing', () => {
    desk = openAlarmDesk();
    const { service, acme, nordic } = desk;
    service.putReport(calmReport('r1'), { kind: 'import' });
    service.alarms.createRule(nordic, 'nordic', rule());
    service.alarms.createRule(acme, 'acme', rule({ enabled: false }));
    service.intake.tap(acme, 'r1', readingsAfter(4, HOUR_WARM));
    expect(service.alarms.list(nordic, { pageNumber: 1, pageSize: 10 }).totalDocuments).toBe(0);
    expect(service.alarms.list(acme, { pageNumber: 1, pageSize: 10 }).totalDocuments).toBe(0);
  });

  test('a limits change through PATCH raises an alarm caused by the edit, with its e-mail job written alongside', () => {
    desk = openAlarmDesk();
    const { service, acme } = desk;
    service.putReport(calmReport('r1'), { kind: 'import' });
    service.alarms.createRule(acme, 'acme', rule());
    service.reports.update(acme, 'r1', { limits: { maxTemperature: 4.5 } } as never);
    const [alarm] = service.alarms.list(acme, { pageNumber: 1, pageSize: 10 }).alarms;
    expect(alarm).toMatchObject({ reportId: 'r1', cause: 'edit', state: 'open' });
    const log = service.alarms.deliveries(acme, 1, 10);
    expect(log.deliveries).toEqual([expect.objectContaining({ alarmId: alarm.id, kind: 'email', status: 'pending', recipients: ['qa@acme.example'] })]);
  });

  test('a report written whole by the import or a sync pull raises its alarm, named by its cause; a new report with an alert too', () => {
    desk = openAlarmDesk();
    const { service, acme } = desk;
    service.putReport(calmReport('imported'), { kind: 'import' });
    service.putReport(calmReport('pulled'), { kind: 'sync' });
    service.alarms.createRule(acme, 'acme', rule());
    const warm = (id: string) => calmReport(id, { reportedSenseData: { datapoints: [...calmReport(id).reportedSenseData!.datapoints, ...readingsAfter(4, ONE_WARM).datapoints] } });
    service.putReport(warm('imported'), { kind: 'import' });
    service.putReport(warm('pulled'), { kind: 'sync' });
    service.putReport(warm('new'), { kind: 'sync' });
    const alarms = service.alarms.list(acme, { pageNumber: 1, pageSize: 10 }).alarms;
    expect(alarms.map((a) => `${a.reportId}:${a.cause}:${a.level}`).sort()).toEqual(['imported:import:1', 'new:sync:1', 'pulled:sync:1']);
  });

  test('a change that rolls back raises nothing and queues nothing', () => {
    desk = openAlarmDesk();
    const { service, acme } = desk;
    service.putReport(calmReport('r1'), { kind: 'import' });
    service.alarms.createRule(acme, 'acme', rule());
    service.close();

    // The same parts the service composes, on the same file, with a listener after the alarms' that fails.
    const data = DataStore.open(desk.dbFile);
    try {
      const writer = new ReportWriter(data, () => new Date());
      const alarms = new AlarmService(data, () => new Date());
      writer.onChange(alarms.listener());
      writer.onChange(() => {
        throw new Error('the disk is full');
      });
      const before = writer.load('r1')!;
      const warm = reportFromBundle(calmReport('r1', { senseConfig: { ...calmReport('r1').senseConfig, limits: { minTemperature: 2, maxTemperature: 4.5 } } }));
      expect(() => writer.put({ ...warm, updated: new Date().toISOString() }, { kind: 'import' }, before)).toThrow(/disk is full/);
      expect(warm.figures.alert.level).toBeGreaterThan(0);
      const count = data.read(() => data.alarms.count('acme', {}));
      expect(count).toBe(0);
      expect(data.read(() => data.alarms.countDeliveries('acme'))).toBe(0);
    } finally {
      data.close();
    }
    desk.reopen();
  });
});
