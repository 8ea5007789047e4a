/**
 * The review service on a real SQLite file, where HTTP does not reach: the desktop's session key
 * named in reviews and history, and the readings CSV the command line reads without a key.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { SESSION_KEY_NAME } from '../../service/report-review';
import type { Service } from '../../host/open-service';
import { serviceFile } from '../support/service-files';
import { COMPANIES, makeReport } from '../support/service-fixture';

let dir: string;
let service: Service;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'labeldesk-review-service-'));
  service = serviceFile(dir, { now: () => new Date('2026-11-20T10:00:00.000Z') });
  for (const c of COMPANIES) service.companies.upsert(c);
  service.putReport(makeReport('r1'), { kind: 'import' });
});
afterAll(() => {
  service.close();
  rmSync(dir, { recursive: true, force: true });
});

it('the desktop window’s session key, which has no record, is named in the review and the history', () => {
  const key = service.apiKeys.createSessionKey('acme', ['labelReports:read', 'labelReports:update']);
  const caller = service.apiKeys.authenticate(key);
  const comment = service.reviews.comment(caller, 'r1', { text: 'Checked on the desk' });
  expect(comment.author).toEqual({ keyId: 'session', keyName: SESSION_KEY_NAME });
  service.reports.update(caller, 'r1', { labelReference: 'SHP-DESK' });
  const entries = service.reportHistory.history(caller, 'r1').entries;
  const entry = entries.find((e) => e.type === 'comment');
  const change = entries.find((e) => e.type === 'change' && e.kind === 'update');
  expect(entry).toMatchObject({ type: 'comment', actor: { kind: 'apiKey', keyId: 'session', keyName: SESSION_KEY_NAME } });
  expect(change).toMatchObject({ type: 'change', actor: { keyName: SESSION_KEY_NAME }, changes: [{ field: 'labelReference', old: 'REF-r1', new: 'SHP-DESK' }] });
});

it('the command line reads any report’s readings from the file, without a key', () => {
  const text = [...service.csv.readingsOfReport('r1')].join('');
  expect(text.split('\r\n')).toHaveLength(1 + 8 + 1);
  expect(() => service.csv.readingsOfReport('nope')).toThrow("no label report 'nope' in this database");
  expect(() => service.csv.readingsOfReport('r1', 'trimmed')).toThrow(/has no trim/);
});
