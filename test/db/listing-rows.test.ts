/**
 * The listing rows, the text index and the custom field elements follow every write: a database
 * changed step by step (imports, replacements, edits of every kind, per-company state, access
 * changes, a removal) holds exactly what a fresh database holds after importing its export. A
 * report written again whole (sync, an import) is changed in place: what did not change is not
 * written again.
 */
import { createReadStream, mkdtempSync, rmSync, createWriteStream } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { finished } from 'node:stream/promises';
import Database from 'better-sqlite3';
import { derivedForListing as derived } from './listing-dump';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openService, type Service } from '../../host/open-service';
import { COMPANIES, makeReport, series, T0 } from '../support/service-fixture';

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'labeldesk-listing-rows-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const caller = (companyId: string) => ({
  keyId: 'k',
  companyId,
  permissions: new Set(['labelReports:read', 'labelReports:update'] as const),
});

async function exportTo(service: Service, file: string): Promise<void> {
  const out = createWriteStream(file);
  await service.exportBundle(out);
  out.end();
  await finished(out);
}

describe('listing rows', () => {
  it('after any sequence of writes, equal those of a fresh import of the same data', async () => {
    const file = join(dir, 'steps.sqlite');
    const service = openService(file, { now: () => new Date('2026-11-20T10:00:00.000Z') });
    for (const c of COMPANIES) service.companies.upsert(c);
    service.putReport(makeReport('s1', { customFields: [{ customFieldId: 'batch', value: 'B-42' }] }), { kind: 'import' });
    service.putReport(
      makeReport('s2', {
        companyId: 'nordic',
        access: [{ companyId: 'acme', role: 'viewer' }, { companyId: 'fresh', role: 'editor' }],
        companyState: [{ companyId: 'acme', hasFlag: true, isArchived: false }],
        customFields: [{ customFieldId: 'pallets', value: [3, 4.5, 'x'] }],
      }),
      { kind: 'import' },
    );
    service.putReport(makeReport('s3', { labelReference: 'old-ref' }), { kind: 'import' });
    service.putReport(makeReport('s4', { access: [{ companyId: 'nordic', role: 'editor' }] }), { kind: 'import' });

    // Edits of every kind, by the owner and by others.
    service.reports.update(caller('acme'), 's3', { labelReference: 'PO-7788', status: 'completed' });
    service.reports.update(caller('acme'), 's1', { limits: { maxTemperature: 4 }, hasFlag: true, isArchived: true });
    service.reports.update(caller('acme'), 's1', { customFields: [{ customFieldId: 'batch', value: null }, { customFieldId: 'po', value: ['PO-1', 7] }] });
    service.reports.update(caller('acme'), 's2', { isArchived: true });
    service.reports.update(caller('fresh'), 's2', { hasFlag: true, customFields: [{ customFieldId: 'pallets', value: 9 }] });
    service.reports.update(caller('nordic'), 's4', { hasFlag: true });
    // A replacement that moves the report to other hands: its old entries and state go.
    service.putReport(
      makeReport('s4', {
        access: [{ companyId: 'fresh', role: 'viewer' }],
        companyState: [{ companyId: 'fresh', hasFlag: false, isArchived: true }],
        reportedSenseData: { datapoints: series(T0, 600, [5, 5, 5, 12]) },
      }),
      { kind: 'import' },
    );
    service.putReport(makeReport('gone', { customFields: [{ customFieldId: 'batch', value: 'B-1' }] }), { kind: 'import' });
    const raw = new Database(file);
    raw.pragma('foreign_keys = ON');
    raw.prepare('DELETE FROM label_reports WHERE id = ?').run('gone');
    raw.close();

    const bundle = join(dir, 'steps.json');
    await exportTo(service, bundle);
    service.close();
    const fresh = openService(join(dir, 'fresh.sqlite'));
    const result = await fresh.importBundle(createReadStream(bundle));
    expect(result.ok).toBe(true);
    fresh.close();

    const stepped = derived(file);
    expect(stepped).toEqual(derived(join(dir, 'fresh.sqlite')));
    // And the rows say what the steps did.
    expect(stepped.listing.map((r) => `${r.id}:${r.company}`)).toEqual([
      's1:acme', 's2:acme', 's2:fresh', 's2:nordic', 's3:acme', 's4:acme', 's4:fresh',
    ]);
    expect(stepped.listing.find((r) => r.id === 's2' && r.company === 'acme')).toMatchObject({ owner: 'nordic', has_flag: 1, is_archived: 1 });
    expect(stepped.listing.find((r) => r.id === 's4' && r.company === 'fresh')).toMatchObject({ has_flag: 0, is_archived: 1 });
    expect(stepped.listing.find((r) => r.id === 's1')).toMatchObject({ max_temperature: 4, has_flag: 1, is_archived: 1 });
    expect(stepped.elements.map(({ elem: _elem, ...e }) => e)).toEqual([
      { report_id: 's1', field: 'po', text: 'PO-1', num: null, numType: 'null' },
      { report_id: 's1', field: 'po', text: null, num: 7, numType: 'integer' },
      { report_id: 's2', field: 'pallets', text: null, num: 9, numType: 'integer' },
    ]);
    expect(stepped.searches).toMatchObject({ 'label_reference : "PO-77"': ['s3'], 'label_reference : "old"': [] });
  });

  it('a report written again whole is changed in place, and the listing equals a fresh import', async () => {
    const file = join(dir, 'in-place.sqlite');
    const service = openService(file, { now: () => new Date('2026-11-20T10:00:00.000Z') });
    for (const c of COMPANIES) service.companies.upsert(c);
    const put = (id: string, overrides: Parameters<typeof makeReport>[1]) => service.putReport(makeReport(id, overrides), { kind: 'import' });
    const start = {
      access: [{ companyId: 'nordic', role: 'viewer' as const }],
      companyState: [{ companyId: 'nordic', hasFlag: true, isArchived: false }],
      customFields: [
        { customFieldId: 'batch', value: 'B-42' },
        { customFieldId: 'pallets', value: [3, 4.5] },
      ],
    };
    const ids = ['scalars', 'access-added', 'access-removed', 'role', 'state', 'fields', 'order', 'datapoints', 'owner', 'same'];
    for (const id of ids) put(id, start);
    const raw = new Database(file, { readonly: true });
    const rowids = (table: string, id: string) =>
      raw.prepare(`SELECT rowid FROM ${table} WHERE label_report_id = ? ORDER BY rowid`).pluck().all(id);
    const untouched = ['scalars', 'state', 'datapoints'].map((id) => [rowids('access', id), rowids('custom_field_values', id)]);

    // Nothing changed: nothing is written.
    const version = raw.pragma('data_version', { simple: true });
    put('same', start);
    expect(raw.pragma('data_version', { simple: true })).toBe(version);

    put('scalars', { ...start, labelReference: 'PO-7788', status: 'completed', label: { ...makeReport('x').label, name: 'Renamed' } });
    put('access-added', { ...start, access: [...start.access, { companyId: 'fresh', role: 'editor' }] });
    put('access-removed', { ...start, access: [], companyState: [] });
    put('role', { ...start, access: [{ companyId: 'nordic', role: 'editor' }] });
    put('state', { ...start, companyState: [{ companyId: 'acme', hasFlag: false, isArchived: true }] });
    put('fields', { ...start, customFields: [{ customFieldId: 'pallets', value: 9 }, { customFieldId: 'po', value: ['PO-1', 7] }] });
    put('order', { ...start, customFields: [...start.customFields].reverse() });
    put('datapoints', { ...start, reportedSenseData: { datapoints: series(T0, 600, [5, 5, 5, 12]) } });
    put('owner', { ...start, companyId: 'nordic', access: [{ companyId: 'acme', role: 'viewer' }] });

    // The children that did not change kept their rows.
    expect(['scalars', 'state', 'datapoints'].map((id) => [rowids('access', id), rowids('custom_field_values', id)])).toEqual(untouched);
    raw.close();
    const fieldsOf = (id: string) => service.reports.retrieve(caller('acme'), id).customFields;
    expect(fieldsOf('order')).toEqual([...start.customFields].reverse());
    expect(fieldsOf('fields')).toEqual([{ customFieldId: 'pallets', value: 9 }, { customFieldId: 'po', value: ['PO-1', 7] }]);

    const bundle = join(dir, 'in-place.json');
    await exportTo(service, bundle);
    service.close();
    const freshFile = join(dir, 'in-place-fresh.sqlite');
    const fresh = openService(freshFile);
    const imported = await fresh.importBundle(createReadStream(bundle));
    expect(imported).toMatchObject({ ok: true });
    fresh.close();

    const stepped = derived(file);
    expect(stepped).toEqual(derived(freshFile));
    const companiesOf = (id: string) => stepped.listing.filter((r) => r.id === id).map((r) => r.company);
    expect(companiesOf('access-added')).toEqual(['acme', 'fresh', 'nordic']);
    expect(companiesOf('access-removed')).toEqual(['acme']);
    expect(companiesOf('owner')).toEqual(['acme', 'nordic']);
    expect(stepped.listing.find((r) => r.id === 'owner' && r.company === 'acme')).toMatchObject({ owner: 'nordic', has_flag: 0 });
    expect(stepped.listing.filter((r) => r.id === 'state').map((r) => [r.company, r.has_flag, r.is_archived])).toEqual([
      ['acme', 0, 1],
      ['nordic', 0, 0],
    ]);
    expect(stepped.listing.find((r) => r.id === 'scalars')).toMatchObject({ status: 'completed', label_name: 'Renamed', label_reference: 'PO-7788' });
    expect(stepped.searches['label_reference : "PO-77"']).toEqual(['scalars']);
    expect(stepped.elements.filter((e) => e.report_id === 'fields').map((e) => [e.field, e.text, e.num])).toEqual([
      ['pallets', null, 9],
      ['po', 'PO-1', null],
      ['po', null, 7],
    ]);
  });
});
