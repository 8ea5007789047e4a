/**
 * The filter bar: one line, whatever the screen. The search box, the filters in force as
 * removable chips, and everything else in the Filters drop-down, so the table keeps its rows.
 * Typed text (search, custom fields) is committed after a short pause so a query is not sent for
 * every keystroke; selects apply at once.
 */
import { useEffect, useRef, useState } from 'react';
import { FILTER_OPERATORS, type FilterOperator } from '../../contract/filter-operators';
import { canonicalFieldId, customFieldProblem, patternHint } from '../lib/filter';
import type { CustomFieldCondition } from '../lib/filter';
import {
  activeFilterCount,
  ALERT_FILTER_LABELS,
  ALERT_FILTERS,
  createdRangeProblem,
  DECISION_FILTERS,
  DECISION_LABELS,
  ENUMS,
  OPERATOR_WORDS,
  REVIEW_FILTER_LABELS,
  REVIEW_FILTERS,
} from '../lib/list-query';
import type { ListFilters, SearchField, TriState } from '../lib/list-query';
import { modeLabel, statusLabel, typeLabel } from '../lib/format';
import { stores, useCatalogue, useList } from '../state/stores';
import { ColumnChooser } from './ColumnChooser';
import { CsvDownload } from './CsvDownload';
import { FacetsPanel } from './FacetsPanel';
import { FilterChips } from './FilterChips';
import { Popover } from './Popover';
import { SavedViews } from './SavedViews';

const TYPING_PAUSE_MS = 350;

function setFilters(patch: Partial<ListFilters>) {
  stores.list.getState().setFilters(patch);
}

/** Local text state that commits after a pause, and re-syncs when the store changes elsewhere. */
function useDebouncedText(committed: string, commit: (value: string) => void): [string, (v: string) => void, () => void] {
  const [text, setText] = useState(committed);
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  useEffect(() => setText(committed), [committed]);
  useEffect(
    () => () => {
      if (timer.current) clearTimeout(timer.current);
    },
    [],
  );
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
const ARCHIVED: { value: Exclude<TriState, ''>; label: string }[] = [
  { value: 'no', label: 'Hidden' },
  { value: 'yes', label: 'Only archived' },
];

const same = (a: CustomFieldCondition, b: CustomFieldCondition) => a.fieldId === b.fieldId && a.op === b.op && a.value === b.value;

/**
 * One custom field condition. The draft is the row's own until it can be sent: a value the
 * service would compare wrongly (text where a number is needed) is explained beside the row and
 * never sent, so the list keeps showing what the chips say.
 */
function CustomFieldRow({ index, condition }: { index: number; condition: CustomFieldCondition }) {
  const fields = useCatalogue((s) => s.customFields);
  const known = fields.map((f) => f.customFieldId);
  const kindOf = (id: string) => fields.find((f) => f.customFieldId === id)?.kind;
  const [draft, setDraft] = useState(condition);
  const committed = useRef(condition);
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  useEffect(() => {
    if (!same(condition, committed.current)) {
      committed.current = condition;
      setDraft(condition);
    }
  }, [condition]);
  useEffect(
    () => () => {
      if (timer.current) clearTimeout(timer.current);
    },
    [],
  );

  const resolved = { ...draft, fieldId: canonicalFieldId(draft.fieldId, known) };
  const problem = customFieldProblem(resolved, kindOf(resolved.fieldId));

  const commit = (next: CustomFieldCondition) => {
    if (timer.current) clearTimeout(timer.current);
    timer.current = null;
    const toSend = { ...next, fieldId: canonicalFieldId(next.fieldId, known) };
    if (customFieldProblem(toSend, kindOf(toSend.fieldId)) !== null) return;
    if (toSend.fieldId !== next.fieldId) setDraft(toSend);
    committed.current = toSend;
    const list = [...stores.list.getState().query.filters.customFields];
    list[index] = toSend;
    setFilters({ customFields: list });
  };
  const change = (patch: Partial<CustomFieldCondition>, at: 'now' | 'pause') => {
    const next = { ...draft, ...patch };
    setDraft(next);
    if (at === 'now') commit(next);
    else {
      if (timer.current) clearTimeout(timer.current);
      timer.current = setTimeout(() => commit(next), TYPING_PAUSE_MS);
    }
  };
  const remove = () => {
    const list = stores.list.getState().query.filters.customFields.filter((_, i) => i !== index);
    setFilters({ customFields: list });
  };
  const hint = patternHint(draft.op, kindOf(resolved.fieldId));
  const messageId = `cf-message-${index}`;
  return (
    <div className="cf-filter" data-testid="custom-field-filter">
      <div className="cf-filter__inputs">
        <input
          aria-label="Custom field"
          placeholder="field, e.g. carrier"
          list="custom-field-ids"
          value={draft.fieldId}
          onChange={(e) => change({ fieldId: e.target.value }, 'pause')}
          onBlur={() => commit(draft)}
          onKeyDown={(e) => e.key === 'Enter' && commit(draft)}
          className="cf-filter__id"
          aria-describedby={messageId}
        />
        <select aria-label="Operator" value={draft.op} onChange={(e) => change({ op: e.target.value as FilterOperator }, 'now')}>
          {FILTER_OPERATORS.map((op) => (
            <option key={op} value={op}>
              {OPERATOR_WORDS[op]}
            </option>
          ))}
        </select>
        <input
          aria-label="Custom field value"
          placeholder="value"
          value={draft.value}
          onChange={(e) => change({ value: e.target.value }, 'pause')}
          onBlur={() => commit(draft)}
          onKeyDown={(e) => e.key === 'Enter' && commit(draft)}
          className="cf-filter__value"
          aria-invalid={problem !== null}
          aria-describedby={messageId}
        />
        <button type="button" className="button button--quiet" onClick={remove} aria-label="Remove custom field filter">
          ✕
        </button>
      </div>
      <p id={messageId} className={`cf-filter__message${problem ? ' is-problem' : ''}`} data-testid="custom-field-message" role={problem ? 'alert' : undefined}>
        {problem ?? hint ?? ''}
      </p>
    </div>
  );
}

function FilterPanel({ companies }: { companies: { id: string; name: string }[] }) {
  const filters = useList((s) => s.query.filters);
  const fields = useCatalogue((s) => s.customFields);
  const active = activeFilterCount(filters);
  const rangeProblem = createdRangeProblem(filters);
  return (
    <div className="filter-panel" data-testid="filter-panel">
      <div className="filter-panel__grid">
        <Select
          name="status"
          label="Status"
          value={filters.status}
          options={ENUMS.STATUSES.map((s) => ({ value: s, label: statusLabel(s) }))}
          onChange={(status) => setFilters({ status })}
        />
        <Select
          name="alert"
          label="Alert"
          value={filters.alert}
          options={ALERT_FILTERS.map((a) => ({ value: a, label: ALERT_FILTER_LABELS[a] }))}
          onChange={(alert) => setFilters({ alert })}
        />
        <Select
          name="review"
          label="Review"
          value={filters.review}
          options={REVIEW_FILTERS.map((r) => ({ value: r, label: REVIEW_FILTER_LABELS[r] }))}
          onChange={(review) => setFilters({ review })}
        />
        <Select
          name="decision"
          label="Decision"
          value={filters.decision}
          options={DECISION_FILTERS.map((d) => ({ value: d, label: DECISION_LABELS[d] }))}
          onChange={(decision) => setFilters({ decision })}
        />
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
        <Select
          name="owner"
          label="Owner"
          value={filters.owner}
          options={companies.map((c) => ({ value: c.id, label: c.name }))}
          onChange={(owner) => setFilters({ owner })}
        />
        <Select name="flagged" label="Flagged" value={filters.flagged} options={YES_NO} onChange={(flagged) => setFilters({ flagged })} />
        <Select
          name="archived"
          label="Archived"
          value={filters.archived}
          anyLabel="Shown with the others"
          options={ARCHIVED}
          onChange={(archived) => setFilters({ archived })}
        />
        <label className="field">
          <span className="field__label">Created from</span>
          <input
            type="date"
            name="createdFrom"
            value={filters.createdFrom}
            max={filters.createdTo || undefined}
            onChange={(e) => setFilters({ createdFrom: e.target.value })}
            className={filters.createdFrom ? 'is-set' : ''}
            aria-invalid={rangeProblem !== null}
            aria-describedby="created-range-problem"
          />
        </label>
        <label className="field">
          <span className="field__label">Created to</span>
          <input
            type="date"
            name="createdTo"
            value={filters.createdTo}
            min={filters.createdFrom || undefined}
            onChange={(e) => setFilters({ createdTo: e.target.value })}
            className={filters.createdTo ? 'is-set' : ''}
            aria-invalid={rangeProblem !== null}
            aria-describedby="created-range-problem"
          />
        </label>
      </div>
      <p id="created-range-problem" className={`filter-panel__problem${rangeProblem ? ' is-problem' : ''}`} role={rangeProblem ? 'alert' : undefined} data-testid="created-range-problem">
        {rangeProblem ?? ''}
      </p>
      <h4 className="filter-panel__title">Custom fields</h4>
      <datalist id="custom-field-ids">
        {fields.map((f) => (
          <option key={f.customFieldId} value={f.customFieldId}>
            {`${f.count.toLocaleString()} report${f.count === 1 ? '' : 's'}`}
          </option>
        ))}
      </datalist>
      {filters.customFields.map((c, i) => (
        <CustomFieldRow key={i} index={i} condition={c} />
      ))}
      <div className="filter-panel__buttons">
        <button
          type="button"
          className="button button--quiet"
          onClick={() => setFilters({ customFields: [...filters.customFields, { fieldId: '', op: 'eq', value: '' }] })}
        >
          + Custom field filter
        </button>
        <button type="button" className="button button--quiet" disabled={active === 0} onClick={() => stores.list.getState().clearFilters()}>
          Clear filters{active > 0 ? ` (${active})` : ''}
        </button>
      </div>
    </div>
  );
}

export function FilterBar() {
  const filters = useList((s) => s.query.filters);
  const companies = useCatalogue((s) => s.companies);
  const [search, changeSearch, flushSearch] = useDebouncedText(filters.search, (v) => setFilters({ search: v }));
  const active = activeFilterCount(filters);

  return (
    <form className="filters" role="search" aria-label="Filter reports" onSubmit={(e) => e.preventDefault()} data-testid="filter-bar">
      <div className="search">
        <select aria-label="Search in" value={filters.searchField} onChange={(e) => setFilters({ searchField: e.target.value as SearchField })}>
          <option value="reference">Reference</option>
          <option value="label">Label code</option>
        </select>
        <input
          id="search"
          type="search"
          aria-label="Search text"
          placeholder={filters.searchField === 'label' ? 'Search label code…  ( / )' : 'Search reference…  ( / )'}
          value={search}
          onChange={(e) => changeSearch(e.target.value)}
          onKeyDown={(e) => {
            if (e.key === 'Enter') flushSearch();
            if (e.key === 'Escape') (e.target as HTMLInputElement).blur();
          }}
        />
      </div>
      <FilterChips />
      <Popover label={<>Filters{active > 0 ? ` (${active})` : ''} ▾</>} title="More filters" testId="filters-button" className="popover--filters">
        <FilterPanel companies={companies} />
      </Popover>
      <Popover label={<>Counts ▾</>} title="Counts per value" testId="facets-button" className="popover--facets">
        <FacetsPanel />
      </Popover>
      <SavedViews />
      <ColumnChooser />
      <CsvDownload />
    </form>
  );
}
