/**
 * Beside the filters: for the filters in force, each value of each key with how many reports
 * hold it ("Air freight 12 034"). A click adds that value as a filter, or removes it when it is
 * the filter already. Counts come from the service (/local/insights/facets), exact and as the
 * key's company sees the reports, for every filter of the browser (the review and decision ones
 * too), and are asked again whenever the filters or the list change.
 */
import { useEffect, useMemo, useState } from 'react';
import { insightsClient } from '../api/insights-client';
import type { FacetValue, Facets } from '../api/insights-client';
import { errorMessage } from '../api/client';
import { ALERT_LEVEL_NAMES } from '../../sense/alert-rules';
import { CUSTOM_FIELD_PREFIX, FACET_KEYS } from '../../schema/insights';
import type { Mode, ReportType, Status } from '../../schema/report';
import { modeLabel, statusLabel, typeLabel } from '../lib/format';
import { toApiParams } from '../lib/list-query';
import type { AlertFilter, DecisionFilter, ListFilters } from '../lib/list-query';
import { stores, useCatalogue, useConnection, useList } from '../state/stores';
import './insights.css';

/** Custom fields shown as facets: the most used ones, so the panel stays short. */
const CUSTOM_FIELD_FACETS = 4;

export const FACET_TITLES: Record<string, string> = {
  status: 'Status',
  'alert.level': 'Alert',
  mode: 'Mode',
  type: 'Type',
  'company.id': 'Owner',
  hasFlag: 'Flag',
  isArchived: 'Archive',
  decision: 'Decision',
};

const LEVEL_FILTERS: Record<number, AlertFilter> = { [-1]: 'noTaps', 0: 'none', 1: 'moderate', 2: 'critical' };
const DECISION_WORDS: Record<string, string> = { released: 'Released', rejected: 'Rejected', onHold: 'On hold' };

export function facetTitle(key: string): string {
  return FACET_TITLES[key] ?? (key.startsWith(CUSTOM_FIELD_PREFIX) ? key.slice(CUSTOM_FIELD_PREFIX.length) : key);
}

/** A value in words, as the filter bar says it. */
export function facetValueLabel(key: string, v: Pick<FacetValue, 'value' | 'label'>): string {
  if (v.label !== undefined) return v.label;
  const value = v.value;
  switch (key) {
    case 'status':
      return statusLabel(value as Status);
    case 'mode':
      return modeLabel(value as Mode);
    case 'type':
      return typeLabel(value as ReportType);
    case 'alert.level':
      return ALERT_LEVEL_NAMES[value as number] ?? String(value);
    case 'hasFlag':
      return value ? 'Flagged' : 'Not flagged';
    case 'isArchived':
      return value ? 'Archived' : 'Not archived';
    case 'decision':
      return value === null ? 'Not decided' : (DECISION_WORDS[value as string] ?? String(value));
    default:
      return value === null ? '(not set)' : String(value);
  }
}

/**
 * The filter change a click on a value makes: the value's filter, or none when it is in force
 * already. A custom field not set is a range chip of its `unset` key, which only the /local
 * list reads (the filter bar has no control for it).
 */
export function facetPatch(filters: ListFilters, key: string, value: FacetValue['value']): Partial<ListFilters> | null {
  const toggle = <K extends keyof ListFilters>(name: K, set: ListFilters[K], none: ListFilters[K]): Partial<ListFilters> =>
    ({ [name]: filters[name] === set ? none : set }) as Partial<ListFilters>;
  switch (key) {
    case 'status':
      return toggle('status', value as Status, '');
    case 'mode':
      return toggle('mode', value as Mode, '');
    case 'type':
      return toggle('type', value as ReportType, '');
    case 'alert.level': {
      const alert = LEVEL_FILTERS[value as number];
      return alert ? toggle('alert', alert, '') : null;
    }
    case 'company.id':
      return toggle('owner', String(value), '');
    case 'hasFlag':
      return toggle('flagged', value ? 'yes' : 'no', '');
    case 'isArchived':
      return toggle('archived', value ? 'yes' : 'no', '');
    case 'decision':
      return toggle('decision', (value ?? 'none') as DecisionFilter, '');
    default: {
      if (!key.startsWith(CUSTOM_FIELD_PREFIX)) return null;
      if (value === null) {
        const filter = `${key}[unset]`;
        return filters.ranges.some((r) => r.filter === filter)
          ? { ranges: filters.ranges.filter((r) => r.filter !== filter) }
          : { ranges: [...filters.ranges, { label: `${facetTitle(key)}: not set`, filter }] };
      }
      const fieldId = key.slice(CUSTOM_FIELD_PREFIX.length);
      const text = String(value);
      const same = (c: ListFilters['customFields'][number]) => c.fieldId === fieldId && c.op === 'eq' && c.value === text;
      return filters.customFields.some(same)
        ? { customFields: filters.customFields.filter((c) => !same(c)) }
        : { customFields: [...filters.customFields, { fieldId, op: 'eq', value: text }] };
    }
  }
}

/** Whether the value is the filter in force (its click removes it). */
export function facetActive(filters: ListFilters, key: string, value: FacetValue['value']): boolean {
  const patch = facetPatch(filters, key, value);
  if (patch === null) return false;
  if (patch.customFields) return patch.customFields.length < filters.customFields.length;
  if (patch.ranges) return patch.ranges.length < filters.ranges.length;
  return Object.values(patch).every((v) => v === '');
}

export function FacetsPanel() {
  const client = useConnection((s) => s.client);
  const query = useList((s) => s.query);
  const total = useList((s) => s.total);
  const fields = useCatalogue((s) => s.customFields);
  const params = toApiParams(query);
  const keys = useMemo(
    () =>
      [
        ...FACET_KEYS,
        ...[...fields]
          .sort((a, b) => b.count - a.count)
          .slice(0, CUSTOM_FIELD_FACETS)
          .map((f) => CUSTOM_FIELD_PREFIX + f.customFieldId),
      ].join(','),
    [fields],
  );
  const [facets, setFacets] = useState<Facets | null>(null);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    if (!client) return;
    const abort = new AbortController();
    insightsClient(client)
      .facets({ filter: params.filter, customFields: params.customFields, review: params.review, unset: params.unset, keys }, abort.signal)
      .then((answer) => {
        setFacets(answer);
        setError(null);
      })
      .catch((err: unknown) => {
        if (!abort.signal.aborted) setError(errorMessage(err));
      });
    return () => abort.abort();
  }, [client, params.filter, params.customFields, params.review, params.unset, keys, total]);

  const filters = query.filters;
  return (
    <section className="facets" aria-label="Counts per value" data-testid="facets" aria-busy={facets === null}>
      {error && <p role="alert">{error}</p>}
      {facets &&
        Object.entries(facets.facets).map(([key, values]) => (
          <div key={key} className="facets__key" data-facet={key}>
            <h4 className="facets__title">{facetTitle(key)}</h4>
            <ul className="facets__values">
              {values.map((v) => {
                const patch = facetPatch(filters, key, v.value);
                const active = facetActive(filters, key, v.value);
                const label = facetValueLabel(key, v);
                return (
                  <li key={String(v.value)}>
                    <button
                      type="button"
                      className={`facet${active ? ' is-active' : ''}`}
                      aria-pressed={active}
                      disabled={patch === null}
                      title={patch === null ? 'No filter of the report list says this' : active ? `Remove filter: ${label}` : `Filter: ${label}`}
                      onClick={() => patch && stores.list.getState().setFilters(patch)}
                    >
                      <span className="facet__label">{label}</span> <span className="facet__count">{v.count.toLocaleString()}</span>
                    </button>
                  </li>
                );
              })}
            </ul>
          </div>
        ))}
    </section>
  );
}
