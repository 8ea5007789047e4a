/**
 * A report holds at most MAX_REPORT_CUSTOM_FIELDS custom fields, whichever way they come: a
 * PATCH that would pass it is a 400 naming the limit and changes nothing, an activation and an
 * import refuse the report by its id (the import whole, as it is all or nothing), and a report
 * at the limit still takes changes of the fields it holds. Sync pulls: test/sync/remote-strict-edge.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_REPORT_CUSTOM_FIELDS } from '../../schema/report';
import { api, makeActivation, makeReport, startTestService, type TestService } from '../support/service-fixture';
import { runLabeldeskInProcess } from '../cli/run-labeldesk';
import { column } from '../support/service-files';

const fields = (count: number, from = 0) => Array.from({ length: count }, (_, i) => ({ customFieldId: `f${from + i}`, value: `v${from + i}` }));

let svc: TestService;
let intakeKey: string;

beforeAll(async () => {
  svc = await startTestService([
    makeReport('r-full', { customFields: fields(MAX_REPORT_CUSTOM_FIELDS) }),
    makeReport('r-few', { customFields: fields(3) }),
  ]);
  intakeKey = svc.service.apiKeys.create('acme', ['labelReports:create', 'labelReports:read'], 'intake').key;
});
afterAll(() => svc.stop());

const patch = (id: string, body: unknown) => api(svc, `/v2/labelReports/${id}`, { method: 'PATCH', body });
const customFieldsOf = async (id: string) => (await api(svc, `/v2/labelReports/${id}`)).body.customFields as { customFieldId: string }[];

describe(`a report holds at most ${MAX_REPORT_CUSTOM_FIELDS} custom fields`, () => {
  it('refuses a PATCH that adds one past the limit, naming it, and changes nothing', async () => {
    const answer = await patch('r-full', { customFields: [{ customFieldId: 'one-more', value: 1 }], hasFlag: true });
    expect(answer.status).toBe(400);
    expect(answer.body).toMatchObject({ code: 'TOO_MANY_CUSTOM_FIELDS', message: `a report holds at most ${MAX_REPORT_CUSTOM_FIELDS} custom fields, not ${MAX_REPORT_CUSTOM_FIELDS + 1}` });
    expect(await customFieldsOf('r-full')).toHaveLength(MAX_REPORT_CUSTOM_FIELDS);
    expect((await api(svc, '/v2/labelReports/r-full')).body.hasFlag).toBe(false);
  });

  it('lets a report at the limit change, clear and replace the fields it holds', async () => {
    const changed = await patch('r-full', { customFields: [{ customFieldId: 'f0', value: 'changed' }, { customFieldId: 'f1', value: null }], hasFlag: true });
    expect(changed.status).toBe(200);
    expect(changed.body.customFields).toHaveLength(MAX_REPORT_CUSTOM_FIELDS - 1);
    expect((await patch('r-full', { customFields: [{ customFieldId: 'in-its-place', value: 2 }] })).status).toBe(200);
    expect(await customFieldsOf('r-full')).toHaveLength(MAX_REPORT_CUSTOM_FIELDS);
  });

  it('refuses a PATCH body setting more fields than a report may hold', async () => {
    const answer = await patch('r-few', { customFields: fields(MAX_REPORT_CUSTOM_FIELDS + 1, 100) });
    expect(answer.status).toBe(400);
    expect(answer.body.code).toBe('INVALID_BODY');
    expect(answer.body.message).toContain(`at most ${MAX_REPORT_CUSTOM_FIELDS} custom fields`);
    expect(await customFieldsOf('r-few')).toHaveLength(3);
  });

  it('refuses an activation past the limit, naming the report', async () => {
    const body = { ...makeActivation('act-too-many'), customFields: fields(MAX_REPORT_CUSTOM_FIELDS + 1) };
    const answer = await api(svc, '/v2/labelReports', { method: 'POST', body, key: null, headers: { 'x-api-key': intakeKey } });
    expect(answer.status).toBe(400);
    expect(answer.body.message).toContain(`report 'act-too-many': a report holds at most ${MAX_REPORT_CUSTOM_FIELDS} custom fields, not ${MAX_REPORT_CUSTOM_FIELDS + 1}`);
    const atLimit = { ...makeActivation('act-at-limit'), customFields: fields(MAX_REPORT_CUSTOM_FIELDS) };
    expect((await api(svc, '/v2/labelReports', { method: 'POST', body: atLimit, key: null, headers: { 'x-api-key': intakeKey } })).status).toBe(201);
  });

  it('refuses an import holding a report past the limit, by the report’s id, and imports nothing', async () => {
    const file = join(svc.dir, 'bundle.json');
    const companies = [{ id: 'acme', name: 'Acme Cold Chain', shortCode: 'ACME' }];
    const reports = [makeReport('imp-ok', { customFields: fields(MAX_REPORT_CUSTOM_FIELDS) }), { ...makeReport('imp-too-many'), customFields: fields(MAX_REPORT_CUSTOM_FIELDS + 1) }];
    writeFileSync(file, JSON.stringify({ version: 1, companies, apiKeys: [], labelReports: reports }));
    const dbFile = join(svc.dir, 'imported.sqlite');
    const run = await runLabeldeskInProcess(['import', '--db', dbFile, file]);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(`$.labelReports[1].customFields: report 'imp-too-many': a report holds at most ${MAX_REPORT_CUSTOM_FIELDS} custom fields, not ${MAX_REPORT_CUSTOM_FIELDS + 1}`);
    expect(column(dbFile, 'SELECT count(*) FROM label_reports')[0]).toBe(0);
  });
});
