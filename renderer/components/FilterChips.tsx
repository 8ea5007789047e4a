/** The filters in force, one removable chip each, on the filter bar's single line. */
import { modeLabel, statusLabel, typeLabel } from '../lib/format';
import { filterChips } from '../lib/list-query';
import type { ListFilters } from '../lib/list-query';
import { stores, useList } from '../state/stores';

export function FilterChips({ companyName }: { companyName(id: string): string }) {
  const filters = useList((s) => s.query.filters);
  const chips = filterChips(filters, { status: statusLabel, mode: modeLabel, type: typeLabel, company: companyName });
  const remove = (patch: Partial<ListFilters>) => stores.list.getState().setFilters(patch);
  return (
    <ul className="chips" aria-label="Filters in force" data-testid="filter-chips">
      {chips.map((chip) => (
        <li key={chip.id} className={`chip${chip.id === 'archived' && filters.archived === 'no' ? ' chip--default' : ''}`} title={chip.label}>
          <span className="chip__text">{chip.label}</span>
          <button type="button" className="chip__remove" aria-label={`Remove filter: ${chip.label}`} onClick={() => remove(chip.remove)}>
            ✕
          </button>
        </li>
      ))}
    </ul>
  );
}
