/**
 * Demo data that tells no impossible story: a label never tapped has no readings; reports whose
 * rules have delays show excursions without an alert, and the explanation says why; finished
 * shipments carry reviews, written once however often the demo is seeded.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Permission } from '../../schema/report';
import type { Service } from '../../host/open-service';
import { column, serviceFile } from '../support/service-files';

let dir: string;
let service: Service & { file: string };
const REPORTS = 600;
const reader = { keyId: 'test', companyId: 'acme', permissions: new Set<Permission>(['labelReports:read']) };

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'labeldesk-demo-data-'));
  service = serviceFile(dir, { now: () => new Date('2026-11-20T10:00:00.000Z') });
  service.createDemoData({ reports: REPORTS, seed: 1 });
});
afterAll(() => {
  service.close();
  rmSync(dir, { recursive: true, force: true });
});

const one = (sql: string) => column(service.file, sql)[0] as number;

it('a label never tapped has no readings and is still active; every report with readings was tapped', () => {
  expect(one('SELECT count(*) FROM label_reports WHERE number_of_taps = 0')).toBeGreaterThan(10);
  expect(one("SELECT count(*) FROM label_reports WHERE number_of_taps = 0 AND (json_extract(calculated, '$.numberOfDatapointsRead') > 0 OR status <> 'active' OR alert_level <> -1)")).toBe(0);
  expect(one("SELECT count(*) FROM label_reports WHERE number_of_taps > 0 AND alert_level = -1")).toBe(0);
  const untapped = column(service.file, 'SELECT id FROM label_reports WHERE number_of_taps = 0 LIMIT 1')[0] as string;
  expect(service.reviews.alerts(reader, untapped).explanation).toBe('No taps: the label has not been tapped yet, so there are no readings to judge.');
});

it('rules with delays leave some excursions without an alert, and the explanation says so', () => {
  const ids = column(
    service.file,
    "SELECT r.id FROM label_reports r JOIN access a ON a.label_report_id = r.id AND a.company_id = 'acme' WHERE alert_level = 0 AND alerts_config IS NOT NULL AND json_extract(minimal, '$.numberOfViolations.all') > 0",
  ) as string[];
  expect(ids.length).toBeGreaterThan(3);
  const explained = service.reviews.alerts(reader, ids[0]);
  expect(explained.excursions.length).toBeGreaterThan(0);
  expect(explained.rules.every((r) => !r.fired)).toBe(true);
  expect(explained.explanation).toMatch(/^None: readings were out of limits for .* but no alert rule's condition was met\.$/);
  expect(explained.rules.some((r) => /once readings (stay|have been) out of limits for/.test(r.description))).toBe(true);
});

it('finished shipments carry reviews: decisions with reasons, acknowledgements only of alerts', () => {
  expect(one("SELECT count(DISTINCT label_report_id) FROM report_reviews WHERE kind = 'decision'")).toBeGreaterThan(30);
  expect(one("SELECT count(*) FROM report_reviews WHERE kind = 'decision' AND decision = 'rejected'")).toBeGreaterThan(0);
  expect(one("SELECT count(*) FROM report_reviews WHERE kind = 'decision' AND decision = 'onHold'")).toBeGreaterThan(0);
  expect(one("SELECT count(*) FROM report_reviews WHERE kind = 'acknowledgement' AND alert_level < 1")).toBe(0);
  expect(one("SELECT count(*) FROM report_reviews v JOIN label_reports r ON r.id = v.label_report_id WHERE r.status <> 'completed'")).toBe(0);
  expect(one("SELECT count(*) FROM report_reviews WHERE api_key_name NOT LIKE '% demo (read, update, keys)'")).toBe(0);
});

it('seeding the same demo again writes no second review', () => {
  const before = one('SELECT count(*) FROM report_reviews');
  service.createDemoData({ reports: REPORTS, seed: 1 });
  expect(one('SELECT count(*) FROM report_reviews')).toBe(before);
});
