/**
 * Reports an import brings in bulk (none of them held yet) raise their alarms in the import's
 * transaction, judged by the rules' conditions on their listing rows, once per rule, report and
 * level; an import that fails raises none. Both ways the bulk path writes are covered: the
 * listing set aside and rebuilt (an import larger than the database), and kept live.
 */
import { Readable } from 'node:stream';
import { afterEach, describe, expect, test } from 'vitest';
import type { AlarmQueue } from '../../alarms/alarm-queue';
import { alarmRuleBodySchema } from '../../schema/alarms';
import type { BundleReport } from '../../schema/bundle';
import { COMPANIES } from '../support/service-fixture';
import { calmReport, HOUR_WARM, ONE_WARM, openAlarmDesk, readingsAfter, type AlarmDesk, closeMailTest, FAST_RETRIES } from './alarm-fixture';
import { startSmtpReceiver, until, type SmtpReceiver } from './smtp-receiver';


let desk: AlarmDesk | undefined;
let queue: AlarmQueue | undefined;
const receivers: SmtpReceiver[] = [];
afterEach(async () => {
  await closeMailTest(queue, receivers, desk);
  queue = undefined;
  desk = undefined;
});

const bundle = (reports: unknown[]) => Readable.from([Buffer.from(JSON.stringify({ version: 1, companies: COMPANIES, labelReports: reports }))]);

const rule = (over: Record<string, unknown> = {}) =>
  alarmRuleBodySchema.parse({ name: 'Critical', minLevel: 2, steps: [{ emails: ['qa@acme.example'] }], channels: ['email', 'desktop'], ...over });

/** A report whose readings after the calm ones are `after`: critical with HOUR_WARM, moderate with ONE_WARM. */
function warmed(id: string, after: number[], overrides: Partial<BundleReport> = {}): BundleReport {
  const calm = calmReport(id, overrides);
  return { ...calm, reportedSenseData: { datapoints: [...calm.reportedSenseData!.datapoints, ...readingsAfter(4, after).datapoints] } };
}

function alarmsOf(d: AlarmDesk, caller = d.acme) {
  return d.service.alarms.list(caller, { pageNumber: 1, pageSize: 100 }).alarms;
}

describe('alarms of an import’s new reports', () => {
  test('critical reports a rule picks raise one alarm each and one mail; importing them again raises none', async () => {
    desk = openAlarmDesk();
    const { service, acme } = desk;
    const receiver = await startSmtpReceiver();
    receivers.push(receiver);
    service.alarms.saveSmtp(null, { host: '127.0.0.1', port: receiver.port, security: 'none', user: null, from: 'alarms@acme.example', appUrl: 'http://desk.acme.example:4317' });
    service.alarms.createRule(acme, 'acme', rule());
    const reports = [warmed('c1', HOUR_WARM), calmReport('calm'), warmed('m1', ONE_WARM), warmed('c2', HOUR_WARM)];

    expect((await service.importBundle(bundle(reports))).ok).toBe(true);
    const alarms = alarmsOf(desk);
    expect(alarms.map((a) => `${a.reportId}:${a.level}:${a.cause}:${a.state}`).sort()).toEqual(['c1:2:import:open', 'c2:2:import:open']);
    expect(alarms[0].excursion).toMatch(/out of limits/);
    expect(alarms[0].notices.map((n) => n.channel)).toEqual(['desktop']);
    // The mails are queued with the alarms, in the import's transaction.
    expect(service.alarms.deliveries(acme, 1, 10).deliveries.map((d) => d.status)).toEqual(['pending', 'pending']);

    queue = service.deliverAlarms({ schedule: FAST_RETRIES });
    const mails = await receiver.received(2);
    expect(mails.map((m) => m.subject).sort()).toEqual(['Critical alarm: REF-c1', 'Critical alarm: REF-c2']);
    expect(mails.every((m) => m.to.join() === 'qa@acme.example')).toBe(true);
    expect(mails.map((m) => /\?report=(c\d)/.exec(m.text)?.[1]).sort()).toEqual(['c1', 'c2']);
    await until(() => service.alarms.deliveries(acme, 1, 10).deliveries.filter((d) => d.status === 'succeeded').length === 2);

    // The same bundle again: every report is held now, none rises.
    expect((await service.importBundle(bundle(reports))).ok).toBe(true);
    expect(alarmsOf(desk)).toHaveLength(2);
    expect(service.alarms.deliveries(acme, 1, 10).totalDocuments).toBe(2);
    await queue.stop();
    queue = undefined;
    expect(receiver.mails).toHaveLength(2);
  });

  test('a rule’s filter and custom-field conditions pick the reports, for each company that sees them', async () => {
    desk = openAlarmDesk();
    const { service, acme, nordic } = desk;
    service.alarms.createRule(acme, 'acme', rule({ name: 'Air vaccines', minLevel: 1, filter: 'mode[eq]airFreight', customFields: 'product[eq]vaccine' }));
    service.alarms.createRule(acme, 'acme', rule({ name: 'Sea', filter: 'mode[eq]seaFreight' }));
    service.alarms.createRule(nordic, 'nordic', rule({ name: 'Nordic', steps: [{ emails: ['ops@nordic.example'] }] }));
    const vaccine = [{ customFieldId: 'product', value: 'vaccine' }];
    const shared = [{ companyId: 'nordic', role: 'viewer' as const }];
    const reports = [
      warmed('air-vaccine', ONE_WARM, { mode: 'airFreight', customFields: vaccine }),
      warmed('air-fruit', HOUR_WARM, { mode: 'airFreight', customFields: [{ customFieldId: 'product', value: 'fruit' }] }),
      warmed('road-vaccine', HOUR_WARM, { customFields: vaccine, access: shared }),
      warmed('road-calm-shared', [], { access: shared }),
    ];
    expect((await service.importBundle(bundle(reports))).ok).toBe(true);
    expect(alarmsOf(desk).map((a) => `${a.ruleName}:${a.reportId}:${a.level}`)).toEqual(['Air vaccines:air-vaccine:1']);
    expect(alarmsOf(desk, nordic).map((a) => `${a.ruleName}:${a.reportId}:${a.level}`)).toEqual(['Nordic:road-vaccine:2']);
  });

  test('no rule that matches raises nothing; an import that fails raises nothing and queues nothing', async () => {
    desk = openAlarmDesk();
    const { service, acme } = desk;
    service.alarms.createRule(acme, 'acme', rule({ filter: 'mode[eq]airFreight' }));
    expect((await service.importBundle(bundle([warmed('road', HOUR_WARM)]))).ok).toBe(true);
    expect(alarmsOf(desk)).toHaveLength(0);

    service.alarms.createRule(acme, 'acme', rule({ name: 'Any critical' }));
    const failed = await service.importBundle(bundle([warmed('c1', HOUR_WARM), { ...warmed('c2', HOUR_WARM), companyId: 'ghost' }]));
    expect(failed.ok).toBe(false);
    expect(alarmsOf(desk)).toHaveLength(0);
    expect(service.alarms.deliveries(acme, 1, 10).totalDocuments).toBe(0);
  });

  test('an import smaller than the database (the listing kept live) raises the alarms of its new reports as well', async () => {
    desk = openAlarmDesk();
    const { service, acme } = desk;
    expect((await service.importBundle(bundle(Array.from({ length: 6 }, (_, i) => calmReport(`held${i}`))))).ok).toBe(true);
    service.alarms.createRule(acme, 'acme', rule());
    // One held report rises (the per-report listener), two are new (the bulk path).
    const reports = [warmed('held0', HOUR_WARM), warmed('n1', HOUR_WARM), warmed('n2', HOUR_WARM)];
    expect((await service.importBundle(bundle(reports))).ok).toBe(true);
    expect(alarmsOf(desk).map((a) => `${a.reportId}:${a.cause}`).sort()).toEqual(['held0:import', 'n1:import', 'n2:import']);
  });

  test('an import larger than the database judges a report it replaces by the replaced report’s listing row', async () => {
    desk = openAlarmDesk();
    const { service, acme } = desk;
    // Held by road: the rule for air freight does not pick it as it stands.
    expect((await service.importBundle(bundle([calmReport('moved')]))).ok).toBe(true);
    service.alarms.createRule(acme, 'acme', rule({ filter: 'mode[eq]airFreight' }));
    // Larger than the database, so the listing is set aside and rebuilt: the report comes back
    // by air and critical, beside a new report.
    const reports = [warmed('moved', HOUR_WARM, { mode: 'airFreight' }), calmReport('new1')];
    expect((await service.importBundle(bundle(reports))).ok).toBe(true);
    expect(alarmsOf(desk).map((a) => `${a.reportId}:${a.level}:${a.cause}`)).toEqual(['moved:2:import']);
  });
});
