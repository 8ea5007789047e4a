/**
 * The plan of each path the report browser takes, on a database made the way a site makes it:
 * a bundle imported with `labeldesk import` (analysed when it switches in), three quarters of
 * the reports owned by the key's company and one quarter owned by another and shared with it as
 * viewer. Each path reads the company's listing rows through the index meant for it, and the
 * default order needs no sorting. LABELDESK_PLAN_REPORTS sets the size (default 4 000).
 */
import { createWriteStream, mkdtempSync, rmSync } from 'node:fs';
import { once } from 'node:events';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { finished } from 'node:stream/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DataStore } from '../../db/data-store';
import { parseListQuery } from '../../query/list-query';
import { MODES, REPORT_TYPES } from '../../schema/report';
import { runLabeldesk } from '../cli/run-labeldesk';

const REPORTS = Number(process.env.LABELDESK_PLAN_REPORTS ?? 4000);
const HOME = 'alpha';

let dir: string;
let data: DataStore;

/** The bundle, written a report at a time. Values cycle so that every filter finds some. */
async function writeBundle(file: string): Promise<void> {
  const out = createWriteStream(file);
  const put = async (text: string) => {
    if (!out.write(text)) await once(out, 'drain');
  };
  await put(
    JSON.stringify({
      version: 1,
      companies: [
        { id: 'alpha', name: 'Alpha Logistics', shortCode: 'ALP' },
        { id: 'beta', name: 'Beta Foods', shortCode: 'BET' },
      ],
    }).slice(0, -1) + ',"labelReports":[\n',
  );
  for (let i = 0; i < REPORTS; i++) {
    const start = 1_760_000_000 + i * 300;
    const shared = i % 4 === 3;
    const excursion = i % 7 === 0 ? 12 : i % 11 === 0 ? 9 : 5;
    const report = {
      id: `p-${String(i).padStart(6, '0')}`,
      created: new Date((start - 600) * 1000).toISOString(),
      companyId: shared ? 'beta' : 'alpha',
      label: {
        uid: `04:${(i * 7919).toString(16).padStart(12, '0')}`,
        sequenceCode: `LBL-${String(i).padStart(7, '0')}`,
        type: 'TempSense T1',
        name: `Label ${i}`,
        firmwareVersionInfo: { firmwareVersion: '2.4.1', firmwareApiVersion: '3' },
      },
      mode: MODES[i % MODES.length],
      type: REPORT_TYPES[i % 2],
      status: i % 3 === 0 ? 'active' : 'completed',
      labelReference: `PO-${String((i * 37) % 100_000).padStart(5, '0')}`,
      senseConfig: { limits: { minTemperature: 2, maxTemperature: 8 }, interval: 300, configTime: start - 600, startDelay: 600, runningTime: 6000 },
      numberOfTaps: 1 + (i % 3),
      reportedSenseData: {
        datapoints: Array.from({ length: 20 }, (_, k) => ({ timestamp: start + k * 300, temperature: k === 10 ? excursion : 5 })),
      },
      customFields: [
        { customFieldId: 'batch', value: `B-${i % 500}` },
        { customFieldId: 'pallets', value: i % 40 },
      ],
      access: shared ? [{ companyId: 'alpha', role: 'viewer' }] : [],
      companyState: i % 50 === 0 ? [{ companyId: 'alpha', hasFlag: true, isArchived: i % 100 === 0 }] : [],
    };
    await put((i === 0 ? '' : ',\n') + JSON.stringify(report));
  }
  out.end(']}\n');
  await finished(out);
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'labeldesk-listing-plans-'));
  const bundle = join(dir, 'bundle.json');
  await writeBundle(bundle);
  const file = join(dir, 'site.sqlite');
  const run = await runLabeldesk(dir, ['import', '--db', file, bundle]);
  expect(run.stderr).toBe('');
  expect(run.code).toBe(0);
  data = DataStore.open(file);
}, 120_000);

afterAll(() => {
  data?.close();
  rmSync(dir, { recursive: true, force: true });
});

function plans(query: Record<string, string>) {
  const q = parseListQuery({ pageSize: '100', output: 'minimal', ...query });
  const filter = data.reports.compile(q);
  const plan = data.reports.plans(HOME, filter, q.pageSize, (q.pageNumber - 1) * q.pageSize);
  const total = data.reports.count(HOME, filter);
  return { countPlan: plan.count, pagePlan: plan.page, total, text: `count:\n  ${plan.count.join('\n  ')}\npage:\n  ${plan.page.join('\n  ')}` };
}

/** Every line reading the listing rows goes through one of `indexes`, searched by the company. */
function readsThrough(lines: string[], ...indexes: string[]): boolean {
  const reads = lines.filter((line) => / l USING /.test(line));
  return reads.length > 0 && reads.every((line) => indexes.some((index) => line.includes(` INDEX ${index} (ck=?`)));
}

const SORTS = /USE TEMP B-TREE/;

describe(`list plans on ${REPORTS} imported reports`, () => {
  it('the default order, newest first: the created index, in its order, covering', () => {
    const p = plans({ order: 'created[desc]' });
    expect(p.total).toBe(REPORTS);
    expect(p.pagePlan, p.text).toContain('SEARCH l USING COVERING INDEX listing_created (ck=?)');
    expect(p.pagePlan.join('\n'), p.text).not.toMatch(SORTS);
  });

  it('a deep page walks the covering created index, not the reports', () => {
    const p = plans({ order: 'created[desc]', pageNumber: String(Math.floor(REPORTS / 100) - 1) });
    expect(p.pagePlan, p.text).toEqual(['SEARCH l USING COVERING INDEX listing_created (ck=?)', 'SCALAR SUBQUERY 1', expect.stringContaining('company_keys')]);
  });

  it('updated order: the updated index, in its order', () => {
    const p = plans({ order: 'updated[desc]' });
    expect(p.pagePlan, p.text).toContain('SEARCH l USING COVERING INDEX listing_updated (ck=?)');
    expect(p.pagePlan.join('\n'), p.text).not.toMatch(SORTS);
  });

  it('status and alert level, newest first: counted on the status + alert index, the page in created order', () => {
    const p = plans({ filter: 'status[eq]active,alert.level[gte]1', order: 'created[desc]' });
    expect(p.total).toBeGreaterThan(0);
    expect(p.total, p.text).toBeLessThan(REPORTS / 3);
    expect(readsThrough(p.countPlan, 'listing_status_alert'), p.text).toBe(true);
    expect(readsThrough(p.pagePlan, 'listing_status_alert', 'listing_created'), p.text).toBe(true);
  });

  it.each([
    ['alert level alone', 'alert.level[gte]1', 'listing_alert'],
    ['mode', `mode[eq]${MODES[1]}`, 'listing_mode'],
    ['type', `type[eq]${REPORT_TYPES[1]}`, 'listing_type'],
    ['flag', 'hasFlag[eq]true', 'listing_flag'],
    ['archived', 'isArchived[eq]true', 'listing_archived'],
    ['not archived', 'isArchived[eq]false', 'listing_archived'],
  ])('%s, newest first: its own index', (_name, filter, index) => {
    const p = plans({ filter, order: 'created[desc]' });
    expect(p.total).toBeGreaterThan(0);
    expect(readsThrough(p.countPlan, index), p.text).toBe(true);
    expect(readsThrough(p.pagePlan, index, 'listing_created'), p.text).toBe(true);
  });

  it('shared with me (another owner): counted on the owner index, one range per other company', () => {
    const p = plans({ filter: 'company.id[neq]alpha', order: 'created[desc]' });
    expect(p.total).toBe(REPORTS / 4);
    expect(p.countPlan, p.text).toContain('SEARCH l USING COVERING INDEX listing_owner (ck=? AND owner_ck=?)');
    expect(readsThrough(p.pagePlan, 'listing_owner', 'listing_created'), p.text).toBe(true);
  });

  it('a date range: a range of the created index, in its order', () => {
    const p = plans({ filter: 'created[gte]2025-10-10T00:00:00Z,created[lt]2025-10-12T00:00:00Z', order: 'created[desc]' });
    expect(p.total).toBeGreaterThan(0);
    expect(p.pagePlan, p.text).toContain('SEARCH l USING COVERING INDEX listing_created (ck=? AND created>? AND created<?)');
    expect(p.pagePlan.join('\n'), p.text).not.toMatch(SORTS);
  });

  it.each([
    ['labelReference[ilike]%po-012%'],
    ['labelReference[like]PO-012%'],
    ['label.sequenceCode[includes]LBL-00012'],
  ])('text search %s: the trigram index picks the reports', (filter) => {
    const p = plans({ filter, order: 'created[desc]' });
    expect(p.total).toBeGreaterThan(0);
    for (const lines of [p.countPlan, p.pagePlan]) {
      expect(lines.join('\n'), p.text).toMatch(/SCAN report_text VIRTUAL TABLE INDEX \d+:M/);
      expect(lines.join('\n'), p.text).not.toMatch(/SCAN l\b|USING INDEX listing_created \(ck=\?\)/);
    }
  });

  it('a text pattern too short for trigrams falls back to reading the rows', () => {
    const p = plans({ filter: 'labelReference[ilike]%12%', order: 'created[desc]' });
    expect(p.total).toBeGreaterThan(0);
    expect([...p.countPlan, ...p.pagePlan].join('\n'), p.text).not.toMatch(/report_text/);
  });

  it.each([
    ['a reference', `labelReference[eq]PO-${String((1234 * 37) % 100_000).padStart(5, '0')}`, 'listing_reference', 1],
    ['a label uid', `label.uid[eq]04:${(1234 * 7919).toString(16).padStart(12, '0')}`, 'listing_label_uid', 1],
    ['a sequence code', 'label.sequenceCode[eq]LBL-0001234', 'listing_sequence_code', 1],
    ['a label name', 'label.name[eq]Label 1234', 'listing_label_name', 1],
    ['a reference no report has', 'labelReference[eq]PO-none', 'listing_reference', 0],
    ['a rare datapoint count', 'calculatedSenseData.numberOfDatapointsRead[gt]20', 'listing_datapoints_read', 0],
    ['datapoints available', 'calculatedSenseData.numberOfDatapointsAvailable[gte]1000', 'listing_datapoints_available', 0],
    ['measurements occurred', 'calculatedSenseData.numberOfMeasurementsOccurred[gte]1000', 'listing_measurements_occurred', 0],
    ['humidity violations', 'calculatedSenseData.numberOfViolations.humidity[gte]1', 'listing_violations_humidity', 0],
    ['humidity violation time', 'calculatedSenseData.durationOfViolations.humidity[gte]600', 'listing_violation_duration_humidity', 0],
  ])('%s, newest first: starts from its rare-value index, never walks the created index', (_name, filter, index, total) => {
    const p = plans({ filter, order: 'created[desc]' });
    expect(p.total).toBe(total);
    expect(readsThrough(p.countPlan, index), p.text).toBe(true);
    expect(readsThrough(p.pagePlan, index), p.text).toBe(true);
  });

  it('a datapoint count most reports share: the same index, its matches sorted', () => {
    const p = plans({ filter: 'calculatedSenseData.numberOfDatapointsRead[gte]20', order: 'created[desc]' });
    expect(p.total).toBe(REPORTS);
    expect(readsThrough(p.pagePlan, 'listing_datapoints_read'), p.text).toBe(true);
    expect(p.pagePlan.join('\n'), p.text).toMatch(SORTS);
  });

  it.each([
    ['custom field equality', 'batch[eq]B-42', 'custom_field_elements_text (field=? AND text=?)'],
    ['a custom number range', 'pallets[gte]38', 'custom_field_elements_num (field=? AND num>?)'],
  ])('%s: a search of the element index', (_name, customFields, search) => {
    const p = plans({ customFields, order: 'created[desc]' });
    expect(p.total).toBeGreaterThan(0);
    for (const lines of [p.countPlan, p.pagePlan]) {
      expect(lines.join('\n'), p.text).toContain(`SEARCH e USING COVERING INDEX ${search}`);
      expect(lines.join('\n'), p.text).not.toMatch(/json_each/);
    }
  });
});
