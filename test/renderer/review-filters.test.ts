/** The review filters in the words of the filter bar: the URL, the chips, the review list's parameter, a reversed range. */
import { describe, expect, it } from 'vitest';
import { createdRangeProblem, defaultFilters, filterChips, reviewParam, toApiParams, defaultQuery } from '../../renderer/lib/list-query';
import { decodeUrlState, encodeUrlState } from '../../renderer/lib/url-state';
import { explanationInZone } from '../../renderer/lib/zoned-text';
import { formatUtc } from '../../sense/alert-rules';
import { formatTime } from '../../renderer/lib/time-zone';

const words = { status: String, mode: String, type: String, company: String } as never;

describe('review filters', () => {
  it('travel in the URL like the other filters, and unknown values fall back to none', () => {
    const query = defaultQuery();
    query.filters = { ...defaultFilters(), review: 'awaitingAcknowledgement', decision: 'onHold' };
    const search = encodeUrlState({ query, report: null, view: 'reports' });
    expect(search).toContain('review=awaitingAcknowledgement');
    expect(search).toContain('decision=onHold');
    expect(decodeUrlState(search).query.filters).toEqual(query.filters);
    const bad = decodeUrlState('?review=maybe&decision=approved').query.filters;
    expect([bad.review, bad.decision]).toEqual(['', '']);
  });

  it('become the review list’s one parameter, never a /v2 filter key', () => {
    const filters = { ...defaultFilters(), review: 'awaitingReview' as const, decision: 'none' as const };
    expect(reviewParam(filters)).toBe('awaitingReview,decision.none');
    const params = toApiParams({ ...defaultQuery(), filters });
    expect(params.review).toBe('awaitingReview,decision.none');
    expect(params.filter).toBe('isArchived[eq]false');
    expect(reviewParam(defaultFilters())).toBeUndefined();
  });

  it('each get a removable chip', () => {
    const chips = filterChips({ ...defaultFilters(), review: 'awaitingReview', decision: 'released' }, words);
    expect(chips.find((c) => c.id === 'review')).toEqual({ id: 'review', label: 'Awaiting review', remove: { review: '' } });
    expect(chips.find((c) => c.id === 'decision')).toEqual({ id: 'decision', label: 'Decision: Released', remove: { decision: '' } });
  });
});

describe('a reversed created range', () => {
  it('is refused in words; an open or single-day range is not', () => {
    expect(createdRangeProblem({ createdFrom: '2026-05-02', createdTo: '2026-05-01' })).toMatch(/“Created from” \(2026-05-02\) is after “Created to” \(2026-05-01\)/);
    expect(createdRangeProblem({ createdFrom: '2026-05-01', createdTo: '2026-05-01' })).toBeNull();
    expect(createdRangeProblem({ createdFrom: '2026-05-02', createdTo: '' })).toBeNull();
  });
});

describe('the alert explanation', () => {
  it('shows the alert’s time in the screen’s zone and format, not the service’s UTC', () => {
    const at = 1_791_840_209;
    const sentence = `Critical since ${formatUtc(at)} by the rule "x": readings were out of limits.`;
    const local = explanationInZone(sentence, at, 'local');
    expect(local).not.toContain('UTC');
    expect(local).toContain(formatTime(at, 'local', true));
    expect(explanationInZone(sentence, at, 'utc')).toContain(formatTime(at, 'utc', true));
    expect(explanationInZone('None: all readings are within the limits.', 0, 'local')).toBe('None: all readings are within the limits.');
  });
});
