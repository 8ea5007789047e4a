/**
 * What a click on a facet value or an Insights bar does to the report browser's filters: the
 * value's filter, removed again when it is in force; none where the browser has no filter for it.
 * A bar's filter is added to those in force, so the browser lists exactly the bar's reports.
 */
import { describe, expect, it } from 'vitest';
import { bucketFilters, rangePatch, startBucketRange } from '../../renderer/components/InsightsScreen';
import { facetActive, facetPatch, facetValueLabel } from '../../renderer/components/FacetsPanel';
import { activeFilterCount, defaultFilters, defaultQuery, filterChips, isRangeFilter, toApiParams } from '../../renderer/lib/list-query';
import { decodeUrlState, encodeUrlState } from '../../renderer/lib/url-state';
import { binCounts, DISTRIBUTIONS, tableCsv, worstTen, type GroupRow } from '../../contract/insights-tables';

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

  it('adds and removes a custom field condition, and offers nothing for a missing field', () => {
    const added = facetPatch(filters, 'customFields.carrier', 'DHL');
    expect(added).toEqual({ customFields: [{ fieldId: 'carrier', op: 'eq', value: 'DHL' }] });
    const withIt = { ...filters, ...added };
    expect(facetActive(withIt, 'customFields.carrier', 'DHL')).toBe(true);
    expect(facetPatch(withIt, 'customFields.carrier', 'DHL')).toEqual({ customFields: [] });
    // Not set: a range chip of the field's unset key, removed by a second click.
    const notSet = facetPatch(filters, 'customFields.carrier', null);
    expect(notSet).toEqual({ ranges: [{ label: 'carrier: not set', filter: 'customFields.carrier[unset]' }] });
    const withNotSet = { ...filters, ...notSet };
    expect(isRangeFilter(withNotSet.ranges[0].filter)).toBe(true);
    expect(facetActive(withNotSet, 'customFields.carrier', null)).toBe(true);
    expect(facetPatch(withNotSet, 'customFields.carrier', null)).toEqual({ ranges: [] });
    expect(facetPatch(filters, 'labelReference', null)).toBeNull();
    expect(facetValueLabel('decision', { value: null })).toBe('Not decided');
    expect(facetValueLabel('company.id', { value: 'acme', label: 'Acme Cold Chain' })).toBe('Acme Cold Chain');
  });
});

describe('decisions', () => {
  const filters = defaultFilters();
  it('set the decision filter, none for reports without one, and remove it when it is in force', () => {
    expect(facetPatch(filters, 'decision', 'released')).toEqual({ decision: 'released' });
    expect(facetPatch(filters, 'decision', 'onHold')).toEqual({ decision: 'onHold' });
    expect(facetPatch(filters, 'decision', null)).toEqual({ decision: 'none' });
    expect(facetActive({ ...filters, decision: 'rejected' }, 'decision', 'rejected')).toBe(true);
    expect(facetPatch({ ...filters, decision: 'rejected' }, 'decision', 'rejected')).toEqual({ decision: '' });
  });
});

describe('ranges: start-time buckets and the ranges of a figure', () => {
  const filters = defaultFilters();
  const range = { label: 'Degree-hours: 1–10', filter: DISTRIBUTIONS[1].bins[2].filter };

  it('are added to the filters in force, once, and sent with the filter', () => {
    const patched = { ...filters, ...rangePatch(filters, range) };
    expect(patched.ranges).toEqual([range]);
    expect(rangePatch(patched, range)).toEqual({});
    const params = toApiParams({ ...defaultQuery(), filters: { ...patched, mode: 'airFreight' } });
    expect(params.filter).toBe(`mode[eq]airFreight,isArchived[eq]false,${range.filter}`);
    expect(activeFilterCount(patched)).toBe(activeFilterCount(filters) + 1);
    const chip = filterChips(patched, { status: String, mode: String, type: String, company: String }).find((c) => c.label === range.label)!;
    expect(chip.remove).toEqual({ ranges: [] });
  });

  it('travel in the address, and one the list would refuse is dropped', () => {
    const state = { query: { ...defaultQuery(), filters: { ...filters, ranges: [range] } }, report: null, view: 'reports' as const };
    expect(decodeUrlState(encodeUrlState(state)).query.filters.ranges).toEqual([range]);
    expect(decodeUrlState('?range=status[eq]active~x&range=calculatedSenseData.startTime[gte]abc~y&range=nothing').query.filters.ranges).toEqual([]);
    for (const d of DISTRIBUTIONS) for (const b of d.bins) expect(isRangeFilter(b.filter), b.filter).toBe(true);
    expect(isRangeFilter('calculatedSenseData.startTime[gte]1772323200,calculatedSenseData.startTime[lt]1775001600')).toBe(true);
    expect(isRangeFilter('calculatedSenseData.startTime[gte]1,mode[eq]airFreight')).toBe(false);
  });

  it('a start-time bucket opens as its own conditions; one without a start opens nothing', () => {
    const group = { value: '2026-03', filter: 'calculatedSenseData.startTime[gte]1772323200,calculatedSenseData.startTime[lt]1775001600' };
    expect(startBucketRange(group, 'month')).toEqual({ label: 'Started in 2026-03', filter: group.filter });
    expect(startBucketRange({ value: '2026-03-02', filter: group.filter }, 'week')?.label).toBe('Started in the week from 2026-03-02');
    expect(startBucketRange({ value: null }, 'month')).toBeNull();
  });

  it('counts each range of a distribution by its words, 0 for one without reports', () => {
    const groups = (values: [string | null, number][]) => ({ groups: values.map(([value, count]) => ({ value, count })) }) as never;
    const counts = binCounts([groups([['up to 1 h', 3], ['none', 5]]), groups([]), groups([['2–8 °C', 7], [null, 2]])]);
    expect(counts).toEqual([[5, 3, 0, 0, 0], [0, 0, 0, 0, 0], [0, 7, 0, 0, 0]]);
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

  it('opens a month within the created days in force: the bar counts the reports of both', () => {
    const to = new Date(2026, 3, 1).toISOString();
    expect(bucketFilters({ value: '2026-03', to }, { createdFrom: '2026-03-10', createdTo: '' })).toEqual({ createdFrom: '2026-03-10', createdTo: '2026-03-31' });
    expect(bucketFilters({ value: '2026-03', to }, { createdFrom: '2026-01-01', createdTo: '2026-03-20' })).toEqual({ createdFrom: '2026-03-01', createdTo: '2026-03-20' });
  });
});
