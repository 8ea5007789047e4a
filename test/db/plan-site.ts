/**
 * The site the plan tests read: a bundle for `labeldesk import`, three quarters of the reports
 * owned by the home company and one quarter owned by another and shared with it as viewer.
 */
import { createWriteStream, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'vitest';
import { runLabeldesk } from '../cli/run-labeldesk';
import { once } from 'node:events';
import { finished } from 'node:stream/promises';
import { MODES, REPORT_TYPES } from '../../schema/report';

/** The bundle, written a report at a time. Values cycle so that every filter finds some. */
export async function writePlanBundle(file: string, reports: number): Promise<void> {
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
  for (let i = 0; i < reports; i++) {
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

/** A new folder holding site.sqlite, `reports` reports imported into it with `labeldesk import`. */
export async function importPlanSite(prefix: string, reports: number): Promise<{ dir: string; file: string }> {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  const bundle = join(dir, 'bundle.json');
  await writePlanBundle(bundle, reports);
  const file = join(dir, 'site.sqlite');
  const run = await runLabeldesk(dir, ['import', '--db', file, bundle]);
  expect(run.stderr).toBe('');
  expect(run.code).toBe(0);
  return { dir, file };
}
