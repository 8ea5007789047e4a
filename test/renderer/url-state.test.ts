import { describe, expect, it } from 'vitest';
import { defaultFilters, defaultQuery } from '../../renderer/lib/list-query';
import { decodeUrlState, encodeUrlState } from '../../renderer/lib/url-state';
import type { UrlState } from '../../renderer/lib/url-state';

describe('URL state codec', () => {
  it('writes nothing for the default view', () => {
    expect(encodeUrlState({ query: defaultQuery(), report: null, view: 'reports' })).toBe('');
    expect(decodeUrlState('')).toEqual({ query: defaultQuery(), report: null, view: 'reports' });
  });

  it('round-trips every filter, the sort, the open report and the screen', () => {
    const state: UrlState = {
      query: {
        filters: {
          ...defaultFilters(),
          status: 'completed',
          alert: 'critical',
          mode: 'airFreight',
          type: 'humiditySense',
          flagged: 'no',
          archived: 'yes',
          createdFrom: '2026-01-01',
          createdTo: '2026-01-31',
          searchField: 'label',
          search: 'a&b=c %~ ,',
          customFields: [
            { fieldId: 'carrier', op: 'neq', value: 'x~y&z' },
            { fieldId: 'n', op: 'gte', value: '' },
          ],
        },
        sort: { column: 'excursions', direction: 'asc' },
      },
      report: 'r-1 2',
      view: 'settings',
    };
    const search = encodeUrlState(state);
    expect(search.startsWith('?')).toBe(true);
    expect(decodeUrlState(search)).toEqual(state);
  });

  it('drops what it does not understand instead of sending it to the API', () => {
    const decoded = decodeUrlState(
      '?status=lost&alert=9&mode=teleport&flagged=maybe&from=yesterday&sort=__proto__.asc&cf=broken&cf=a~xx~1&view=admin&in=both',
    );
    expect(decoded).toEqual({ query: defaultQuery(), report: null, view: 'reports' });
    expect(decodeUrlState('?sort=reference.up').query.sort).toEqual(defaultQuery().sort);
    expect(decodeUrlState('?sort=label.sequenceCode.asc').query.sort).toEqual(defaultQuery().sort);
  });

  it('hides archived reports unless the link asks for them, and keeps the owner', () => {
    const withArchived = { query: { ...defaultQuery(), filters: { ...defaultFilters(), archived: '' as const, owner: 'nordic' } }, report: null, view: 'reports' as const };
    const search = encodeUrlState(withArchived);
    expect(search).toBe('?archived=any&owner=nordic');
    expect(decodeUrlState(search)).toEqual(withArchived);
    expect(decodeUrlState('?archived=whatever').query.filters.archived).toBe('no');
  });
});
