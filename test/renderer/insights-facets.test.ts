/**
 * What a click on a facet value or an Insights bar does to the report browser's filters: the
 * value's filter, removed again when it is in force; none where the browser has no filter for it.
 */
import { describe, expect, it } from 'vitest';
import { bucketFilters } from '../../renderer/components/InsightsScreen';
import { facetActive, facetPatch, facetValueLabel } from '../../renderer/components/FacetsPanel';
import { defaultFilters } from '../../renderer/lib/list-query';
import { tableCsv, worstTen, type GroupRow } from '../../contract/insights-tables';

describe('facet clicks', () => {
  const filters = defaultFilters();
  it('sets each key’s filter, and removes it when it is in force', () => {
    expect(facetPatch(filters, 'status', 'completed')).toEqual({ status: 'completed' });
    expect(facetPatch({ ...filters, status: 'completed' }, 'status', 'completed')).toEqual({ status: '' });
    expect(facetPatch(filters, 'alert.level', -1)).toEqual({ alert: 'noTaps' });
    expect(facetPatch(filters, 'alert.level', 2)).toEqual({ alert: 'critical' });
    expect(facetPatch(filters, 'mode', 'airFreight')).toEqual({ mode: 'airFreight' });
    expect(facetPatch(filters, 'type', 'tempSense')).toEqual({ type: 'tempSense' });
    expect(facetPatch(filters, 'company.id', 'acme')).toEqual({ owner: 'acme' });
    expect(facetPatch(filters, 'hasFlag', true)).toEqual({ flagged: 'yes' });
    // Archived reports are hidden by default: "not archived" is the filter in force.
    expect(facetActive(filters, 'isArchived', false)).toBe(true);
    expect(facetPatch(filters, 'isArchived', false)).toEqual({ archived: '' });
    expect(facetPatch(filters, 'isArchived', true)).toEqual({ archived: 'yes' });
  });

  it('adds and removes a custom field condition, and offers nothing for a decision or a missing field', () => {
    const added = facetPatch(filters, 'customFields.carrier', 'DHL');
    expect(added).toEqual({ customFields: [{ fieldId: 'carrier', op: 'eq', value: 'DHL' }] });
    const withIt = { ...filters, ...added };
    expect(facetActive(withIt, 'customFields.carrier', 'DHL')).toBe(true);
    expect(facetPatch(withIt, 'customFields.carrier', 'DHL')).toEqual({ customFields: [] });
    expect(facetPatch(filters, 'customFields.carrier', null)).toBeNull();
    expect(facetPatch(filters, 'decision', 'released')).toBeNull();
    expect(facetValueLabel('decision', { value: null })).toBe('Not decided');
    expect(facetValueLabel('company.id', { value: 'acme', label: 'Acme Cold Chain' })).toBe('Acme Cold Chain');
  });
});

describe('the Insights tables', () => {
  const group = (value: string, count: number, withExcursions: number): GroupRow => ({
    value,
    count,
    reportsWithExcursions: withExcursions,
    excursions: withExcursions,
    secondsOutOfRange: 0,
    degreeHours: 0,
    mkt: { mean: null, max: null },
    alertLevels: {},
    decisions: {},
  });

  it('ranks the worst ten by excursion rate among values with enough reports', () => {
    const groups = [group('a', 10, 1), group('b', 4, 4), group('c', 10, 5), group('d', 20, 10)];
    expect(worstTen(groups, 5).map((g) => g.value)).toEqual(['d', 'c', 'a']);
    expect(worstTen(groups, 1).map((g) => g.value)).toEqual(['b', 'd', 'c', 'a']);
  });

  it('writes CSV with a byte order mark, CRLF, quoting and no formulas', () => {
    const csv = tableCsv({ title: 't', columns: ['name', 'n'], rows: [['=SUM(A1)', 1], ['a,b', null]] });
    expect(csv).toBe('\ufeffname,n\r\n\'=SUM(A1),1\r\n"a,b",\r\n');
  });

  it('opens a month of this computer’s zone as its first and last local day', () => {
    const to = new Date(2026, 3, 1);
    expect(bucketFilters({ value: '2026-03', to: to.toISOString() })).toEqual({ createdFrom: '2026-03-01', createdTo: '2026-03-31' });
  });
});
