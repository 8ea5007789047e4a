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

describe('the shipments screen in the address', () => {
  it('round-trips the list filters, order, page and the open shipment, behind their own names', () => {
    const shipments = { alert: '1,2', state: 'onHold', labelsMin: '3', startFrom: '2026-10-01', mode: 'air', product: 'Vaccine X', order: 'labels[desc]', pageNumber: 2, open: 'SHP-1@2026-10-07' };
    const state: UrlState = { query: defaultQuery(), report: 'r-1', view: 'shipments', shipments };
    const search = encodeUrlState(state);
    expect(search).toBe('?view=shipments&report=r-1&sh.alert=1%2C2&sh.state=onHold&sh.labels=3&sh.from=2026-10-01&sh.mode=air&sh.product=Vaccine+X&sh.order=labels%5Bdesc%5D&sh.page=2&shipment=SHP-1%402026-10-07');
    expect(decodeUrlState(search)).toEqual(state);
    // The report list's own alert filter is another parameter.
    expect(decodeUrlState('?alert=critical&sh.alert=2')).toMatchObject({ query: { filters: { alert: 'critical' } }, shipments: { alert: '2' } });
  });

  it('drops what it does not understand, and leaves the default out', () => {
    expect(decodeUrlState('?sh.alert=9&sh.state=shipped&sh.labels=0&sh.from=soon&sh.mode=teleport&sh.order=colour&sh.page=-1&shipment=nope').shipments).toBeUndefined();
    expect(encodeUrlState({ query: defaultQuery(), report: null, view: 'shipments', shipments: { order: 'created[desc]', pageNumber: 1, open: null } })).toBe('?view=shipments');
  });
});
