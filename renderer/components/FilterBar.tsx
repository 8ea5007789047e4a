/**
 * The filters people reach for, each a parameter of the API's own filter (conditions are ANDed).
 * Typed text (search, custom fields) is committed after a short pause so a query is not sent
 * for every keystroke; selects apply at once.
 */
import { useEffect, useRef, useState } from 'react';
import { FILTER_OPERATORS, type FilterOperator } from '../../contract/filter-operators';
import type { CustomFieldCondition } from '../lib/filter';
import { activeFilterCount, ENUMS } from '../lib/list-query';
import type { AlertFilter, ListFilters, SearchField, TriState } from '../lib/list-query';
import { modeLabel, statusLabel, typeLabel } from '../lib/format';
import { stores, useList } from '../state/stores';

const TYPING_PAUSE_MS = 350;

const ALERT_OPTIONS: { value: AlertFilter; label: string }[] = [
  { value: 'critical', label: 'Critical' },
  { value: 'moderate', label: 'Moderate' },
  { value: 'moderateOrWorse', label: 'Moderate or critical' },
  { value: 'none', label: 'None' },
  { value: 'noTaps', label: 'No taps' },
];

const OPERATOR_LABELS: Record<FilterOperator, string> = {
  eq: '=',
  neq: '≠',
  gt: '>',
  gte: '≥',
  lt: '<',
  lte: '≤',
  like: 'like',
  ilike: 'like (any case)',
  includes: 'contains',
};

function setFilters(patch: Partial<ListFilters>) {
  stores.list.getState().setFilters(patch);
}

/** Local text state that commits after a pause, and re-syncs when the store changes elsewhere. */
function useDebouncedText(committed: string, commit: (value: string) => void): [string, (v: string) => void, () => void] {
  const [text, setText] = useState(committed);
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  useEffect(() => setText(committed), [committed]);
  useEffect(() => () => {
    if (timer.current) clearTimeout(timer.current);
  }, []);
  const change = (value: string) => {
    setText(value);
    if (timer.current) clearTimeout(timer.current);
    timer.current = setTimeout(() => commit(value), TYPING_PAUSE_MS);
  };
  const flush = () => {
    if (timer.current) clearTimeout(timer.current);
    timer.current = null;
    commit(text);
  };
  return [text, change, flush];
}

function Select<T extends string>({
  label,
  value,
  options,
  onChange,
  anyLabel = 'Any',
  name,
}: {
  label: string;
  value: T | '';
  options: readonly { value: T; label: string }[];
  onChange: (v: T | '') => void;
  anyLabel?: string;
  name: string;
}) {
  return (
    <label className="field">
      <span className="field__label">{label}</span>
      <select name={name} value={value} onChange={(e) => onChange(e.target.value as T | '')} className={value ? 'is-set' : ''}>
        <option value="">{anyLabel}</option>
        {options.map((o) => (
          <option key={o.value} value={o.value}>
            {o.label}
          </option>
        ))}
      </select>
    </label>
  );
}

const YES_NO: { value: Exclude<TriState, ''>; label: string }[] = [
  { value: 'yes', label: 'Yes' },
  { value: 'no', label: 'No' },
];

function CustomFieldRow({ index, condition }: { index: number; condition: CustomFieldCondition }) {
  const update = (patch: Partial<CustomFieldCondition>) => {
    const list = [...stores.list.getState().query.filters.customFields];
    list[index] = { ...list[index], ...patch };
    setFilters({ customFields: list });
  };
  const [fieldId, changeId, flushId] = useDebouncedText(condition.fieldId, (v) => update({ fieldId: v }));
  const [value, changeValue, flushValue] = useDebouncedText(condition.value, (v) => update({ value: v }));
  const remove = () => {
    const list = stores.list.getState().query.filters.customFields.filter((_, i) => i !== index);
    setFilters({ customFields: list });
  };
  return (
    <div className="cf-filter" data-testid="custom-field-filter">
      <input
        aria-label="Custom field id"
        placeholder="field id"
        value={fieldId}
        onChange={(e) => changeId(e.target.value)}
        onBlur={flushId}
        onKeyDown={(e) => e.key === 'Enter' && flushId()}
        className="cf-filter__id"
      />
      <select aria-label="Operator" value={condition.op} onChange={(e) => update({ op: e.target.value as FilterOperator })}>
        {FILTER_OPERATORS.map((op) => (
          <option key={op} value={op}>
            {OPERATOR_LABELS[op]}
          </option>
        ))}
      </select>
      <input
        aria-label="Custom field value"
        placeholder="value"
        value={value}
        onChange={(e) => changeValue(e.target.value)}
        onBlur={flushValue}
        onKeyDown={(e) => e.key === 'Enter' && flushValue()}
        className="cf-filter__value"
      />
      <button type="button" className="button button--quiet" onClick={remove} aria-label="Remove custom field filter">
        ✕
      </button>
    </div>
  );
}

export function FilterBar() {
  const filters = useList((s) => s.query.filters);
  const [search, changeSearch, flushSearch] = useDebouncedText(filters.search, (v) => setFilters({ search: v }));
  const active = activeFilterCount(filters);

  return (
    <form className="filters" role="search" aria-label="Filter reports" onSubmit={(e) => e.preventDefault()}>
      <div className="filters__row">
        <div className="search">
          <select
            aria-label="Search in"
            value={filters.searchField}
            onChange={(e) => setFilters({ searchField: e.target.value as SearchField })}
          >
            <option value="reference">Reference</option>
            <option value="label">Label code</option>
          </select>
          <input
            id="search"
            type="search"
            aria-label="Search text"
            placeholder={filters.searchField === 'label' ? 'Search label sequence code…  ( / )' : 'Search reference…  ( / )'}
            value={search}
            onChange={(e) => changeSearch(e.target.value)}
            onKeyDown={(e) => {
              if (e.key === 'Enter') flushSearch();
              if (e.key === 'Escape') (e.target as HTMLInputElement).blur();
            }}
          />
        </div>
        <Select
          name="status"
          label="Status"
          value={filters.status}
          options={ENUMS.STATUSES.map((s) => ({ value: s, label: statusLabel(s) }))}
          onChange={(status) => setFilters({ status })}
        />
        <Select name="alert" label="Alert" value={filters.alert} options={ALERT_OPTIONS} onChange={(alert) => setFilters({ alert })} />
        <Select
          name="mode"
          label="Mode"
          value={filters.mode}
          options={ENUMS.MODES.map((m) => ({ value: m, label: modeLabel(m) }))}
          onChange={(mode) => setFilters({ mode })}
        />
        <Select
          name="type"
          label="Type"
          value={filters.type}
          options={ENUMS.REPORT_TYPES.map((t) => ({ value: t, label: typeLabel(t) }))}
          onChange={(type) => setFilters({ type })}
        />
        <Select name="flagged" label="Flagged" value={filters.flagged} options={YES_NO} onChange={(flagged) => setFilters({ flagged })} />
        <Select name="archived" label="Archived" value={filters.archived} options={YES_NO} onChange={(archived) => setFilters({ archived })} />
        <label className="field">
          <span className="field__label">Created from</span>
          <input
            type="date"
            name="createdFrom"
            value={filters.createdFrom}
            max={filters.createdTo || undefined}
            onChange={(e) => setFilters({ createdFrom: e.target.value })}
            className={filters.createdFrom ? 'is-set' : ''}
          />
        </label>
        <label className="field">
          <span className="field__label">to</span>
          <input
            type="date"
            name="createdTo"
            value={filters.createdTo}
            min={filters.createdFrom || undefined}
            onChange={(e) => setFilters({ createdTo: e.target.value })}
            className={filters.createdTo ? 'is-set' : ''}
          />
        </label>
      </div>
      <div className="filters__row filters__row--secondary">
        {filters.customFields.map((c, i) => (
          <CustomFieldRow key={i} index={i} condition={c} />
        ))}
        <button
          type="button"
          className="button button--quiet"
          onClick={() => setFilters({ customFields: [...filters.customFields, { fieldId: '', op: 'eq', value: '' }] })}
        >
          + Custom field filter
        </button>
        <button
          type="button"
          className="button button--quiet"
          disabled={active === 0 && filters.customFields.length === 0}
          onClick={() => stores.list.getState().clearFilters()}
        >
          Clear filters{active > 0 ? ` (${active})` : ''}
        </button>
      </div>
    </form>
  );
}
