import { describe, expect, it } from 'vitest';
import {
  activeFilterCount,
  defaultFilters,
  defaultQuery,
  filterChips,
  filterConditions,
  isRangeFilter,
  localDayStart,
  toApiParams,
  toggleSort,
} from '../../renderer/lib/list-query';

/** The defaults without hiding archived reports, so a test sees only the condition it is about. */
const anyArchived = () => ({ ...defaultFilters(), archived: '' as const });

describe('list query → API parameters', () => {
  it('asks for every report but the archived ones, newest first, by default', () => {
    expect(toApiParams(defaultQuery())).toEqual({ order: 'created[desc]', filter: 'isArchived[eq]false' });
    expect(toApiParams({ ...defaultQuery(), filters: anyArchived() })).toEqual({ order: 'created[desc]' });
  });

  it('turns each filter into the API condition', () => {
    const filters = {
      ...defaultFilters(),
      status: 'active' as const,
      alert: 'moderateOrWorse' as const,
      mode: 'seaFreight' as const,
      type: 'tempSense' as const,
      flagged: 'yes' as const,
      archived: 'no' as const,
      search: '  PO-1  ',
    };
    expect(filterConditions(filters)).toEqual([
      { key: 'status', op: 'eq', value: 'active' },
      { key: 'alert.level', op: 'gte', value: 1 },
      { key: 'mode', op: 'eq', value: 'seaFreight' },
      { key: 'type', op: 'eq', value: 'tempSense' },
      { key: 'hasFlag', op: 'eq', value: true },
      { key: 'isArchived', op: 'eq', value: false },
      { key: 'labelReference', op: 'ilike', value: '%PO-1%' },
    ]);
    expect(toApiParams({ filters, sort: { column: 'alert', direction: 'asc' } })).toEqual({
      order: 'alert.level[asc]',
      filter:
        'status[eq]active,alert.level[gte]1,mode[eq]seaFreight,type[eq]tempSense,hasFlag[eq]true,isArchived[eq]false,labelReference[ilike]%PO-1%',
    });
  });

  it('searches the label sequence code when chosen', () => {
    const conds = filterConditions({ ...anyArchived(), search: 'AB_1', searchField: 'label' });
    expect(conds).toEqual([{ key: 'label.sequenceCode', op: 'ilike', value: '%AB\\_1%' }]);
  });

  it('maps each alert level by name', () => {
    const level = (alert: 'noTaps' | 'none' | 'moderate' | 'critical') => filterConditions({ ...defaultFilters(), alert })[0];
    expect(level('noTaps')).toEqual({ key: 'alert.level', op: 'eq', value: -1 });
    expect(level('none')).toEqual({ key: 'alert.level', op: 'eq', value: 0 });
    expect(level('moderate')).toEqual({ key: 'alert.level', op: 'eq', value: 1 });
    expect(level('critical')).toEqual({ key: 'alert.level', op: 'eq', value: 2 });
  });

  it('makes the created range whole local days, "to" inclusive', () => {
    const conds = filterConditions({ ...anyArchived(), createdFrom: '2026-03-01', createdTo: '2026-03-31' });
    expect(conds).toEqual([
      { key: 'created', op: 'gte', value: new Date(2026, 2, 1).toISOString() },
      { key: 'created', op: 'lt', value: new Date(2026, 3, 1).toISOString() },
    ]);
  });

  it('refuses impossible days instead of rolling them over', () => {
    expect(localDayStart('2026-02-31')).toBeNull();
    expect(localDayStart('2026-2-3')).toBeNull();
    expect(localDayStart('2026-12-31', 1)?.getFullYear()).toBe(2027);
    expect(filterConditions({ ...anyArchived(), createdFrom: '2026-02-31' })).toEqual([]);
  });

  it('passes custom field filters as their own parameter', () => {
    const q = { ...defaultQuery(), filters: { ...anyArchived(), customFields: [{ fieldId: 'carrier', op: 'ilike' as const, value: '%dhl%' }] } };
    expect(toApiParams(q)).toEqual({ order: 'created[desc]', customFields: 'carrier[ilike]%dhl%' });
  });

  it('toggles the direction on the same column and starts a new one sensibly', () => {
    expect(toggleSort({ column: 'created', direction: 'desc' }, 'created')).toEqual({ column: 'created', direction: 'asc' });
    expect(toggleSort({ column: 'created', direction: 'asc' }, 'created')).toEqual({ column: 'created', direction: 'desc' });
    expect(toggleSort({ column: 'created', direction: 'desc' }, 'reference')).toEqual({ column: 'reference', direction: 'asc' });
    expect(toggleSort({ column: 'reference', direction: 'asc' }, 'alert')).toEqual({ column: 'alert', direction: 'desc' });
  });

  it('counts active filters', () => {
    expect(activeFilterCount(defaultFilters())).toBe(0);
    expect(
      activeFilterCount({
        ...defaultFilters(),
        status: 'completed',
        search: ' ',
        customFields: [
          { fieldId: 'a', op: 'eq', value: '1' },
          { fieldId: '', op: 'eq', value: '1' },
        ],
      }),
    ).toBe(2);
    // Showing archived reports too is a change from the defaults, and so is an owner.
    expect(activeFilterCount({ ...defaultFilters(), archived: '', owner: 'nordic' })).toBe(2);
  });

  it('filters by owning company', () => {
    expect(filterConditions({ ...anyArchived(), owner: 'nordic' })).toEqual([{ key: 'company.id', op: 'eq', value: 'nordic' }]);
  });
});

describe('filter chips', () => {
  const words = { status: (s: string) => s.toUpperCase(), mode: (m: string) => m, type: (t: string) => t, company: (id: string) => `${id} Ltd` };

  it('shows the hidden archive by default, and removing it shows archived reports', () => {
    const chips = filterChips(defaultFilters(), words);
    expect(chips).toEqual([{ id: 'archived', label: 'Archived hidden', remove: { archived: '' } }]);
    expect(filterChips(anyArchived(), words)).toEqual([]);
  });

  it('names each filter in force in words, and each removes only itself', () => {
    const filters = {
      ...defaultFilters(),
      status: 'active' as const,
      alert: 'moderateOrWorse' as const,
      owner: 'nordic',
      archived: 'yes' as const,
      createdFrom: '2026-03-01',
      search: ' po-1 ',
      customFields: [
        { fieldId: 'pallets', op: 'gte' as const, value: '10' },
        { fieldId: '', op: 'eq' as const, value: '' },
        { fieldId: 'carrier', op: 'ilike' as const, value: 'ds%' },
      ],
    };
    const chips = filterChips(filters, words);
    expect(chips.map((c) => c.label)).toEqual([
      'Reference contains “po-1”',
      'Status: ACTIVE',
      'Alert: Moderate or critical',
      'Owner: nordic Ltd',
      'Archived only',
      'Created from 2026-03-01',
      'pallets ≥ 10',
      'carrier like (any case) ds%',
    ]);
    const pallets = chips.find((c) => c.label === 'pallets ≥ 10')!;
    expect(pallets.remove.customFields).toEqual([filters.customFields[1], filters.customFields[2]]);
    expect(chips.find((c) => c.id === 'archived')!.remove).toEqual({ archived: 'no' });
  });
});

describe('range chips of a value not set', () => {
  const MKT = 'calculatedSenseData.analysedValues.temperature.meanKineticTemperature';
  it('send their keys as unset, and their value ranges as filter conditions', () => {
    const q = defaultQuery();
    q.filters = {
      ...anyArchived(),
      ranges: [
        { label: 'carrier: not set', filter: 'customFields.carrier[unset]' },
        { label: 'Time out of range: 1–6 h', filter: 'calculatedSenseData.durationOfViolations.all[gt]3600,calculatedSenseData.durationOfViolations.all[lte]21600' },
        { label: 'Mean kinetic temperature: none (no readings yet)', filter: `${MKT}[unset]` },
      ],
    };
    const params = toApiParams(q);
    expect(params.unset).toBe(`customFields.carrier,${MKT}`);
    expect(params.filter).toBe('calculatedSenseData.durationOfViolations.all[gt]3600,calculatedSenseData.durationOfViolations.all[lte]21600');
    expect(toApiParams(defaultQuery()).unset).toBeUndefined();
  });

  it('are range conditions the address may carry; other keys are not', () => {
    expect(isRangeFilter('customFields.carrier[unset]')).toBe(true);
    expect(isRangeFilter(`${MKT}[unset]`)).toBe(true);
    expect(isRangeFilter('calculatedSenseData.startTime[unset]')).toBe(true);
    expect(isRangeFilter('status[unset]')).toBe(false);
    expect(isRangeFilter('customFields.[unset]')).toBe(false);
  });
});
