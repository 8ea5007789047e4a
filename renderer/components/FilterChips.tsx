/**
 * The filters in force, one removable chip each, on one line: the filter bar's, and the Insights
 * screen's (whose figures are counted for the same filters). What does not
 * fit the line is never cut off or scrolled out of sight: the chips that fit are shown, the rest
 * wait behind "+N more", and a chip too long for itself is shortened with its whole text on hover.
 */
import { useLayoutEffect, useRef, useState } from 'react';
import { modeLabel, statusLabel, typeLabel } from '../lib/format';
import { createdRangeProblem, filterChips } from '../lib/list-query';
import type { FilterChip, ListFilters } from '../lib/list-query';
import { stores, useCatalogue, useList } from '../state/stores';
import { Popover } from './Popover';

const GAP = 6;
/** Room kept for the "+N more" button when some chips wait behind it. */
const MORE_WIDTH = 96;

function Chip({ chip, filters }: { chip: FilterChip; filters: ListFilters }) {
  const remove = (patch: Partial<ListFilters>) => stores.list.getState().setFilters(patch);
  const problem = chip.id === 'created' && createdRangeProblem(filters) !== null;
  const modifier = chip.id === 'archived' && filters.archived === 'no' ? ' chip--default' : problem ? ' chip--problem' : '';
  return (
    <li className={`chip${modifier}`} title={chip.label} data-chip={chip.id}>
      <span className="chip__text">{chip.label}</span>
      <button type="button" className="chip__remove" aria-label={`Remove filter: ${chip.label}`} onClick={() => remove(chip.remove)}>
        ✕
      </button>
    </li>
  );
}

/** `empty`, when given, is said in place of the line while no filter is in force. */
export function FilterChips({ empty }: { empty?: string } = {}) {
  const filters = useList((s) => s.query.filters);
  const companies = useCatalogue((s) => s.companies);
  const companyName = (id: string) => companies.find((c) => c.id === id)?.name ?? id;
  const chips = filterChips(filters, { status: statusLabel, mode: modeLabel, type: typeLabel, company: companyName });
  const line = useRef<HTMLUListElement>(null);
  const measure = useRef<HTMLUListElement>(null);
  const [fitting, setFitting] = useState(chips.length);
  const labels = chips.map((c) => c.label).join('\n');

  // Each chip is measured in a hidden copy of the line, so how many fit never depends on how many are shown.
  useLayoutEffect(() => {
    const shown = line.current;
    const all = measure.current;
    if (!shown || !all) return;
    const fit = () => {
      const room = shown.clientWidth;
      const widths = [...all.children].map((el) => el.getBoundingClientRect().width);
      let used = 0;
      let n = 0;
      for (let i = 0; i < widths.length; i++) {
        const next = used + (i > 0 ? GAP : 0) + widths[i];
        const more = i < widths.length - 1 ? GAP + MORE_WIDTH : 0;
        if (next + more > room) break;
        used = next;
        n++;
      }
      setFitting(Math.max(Math.min(1, widths.length), n));
    };
    fit();
    const observer = new ResizeObserver(fit);
    observer.observe(shown);
    return () => observer.disconnect();
  }, [labels]);

  const shown = chips.slice(0, fitting);
  const waiting = chips.slice(fitting);
  if (chips.length === 0 && empty !== undefined) return <p className="chips-line chips-line--empty">{empty}</p>;
  return (
    <div className="chips-line">
      <ul className="chips" aria-label="Filters in force" data-testid="filter-chips" ref={line}>
        {shown.map((chip) => (
          <Chip key={chip.id} chip={chip} filters={filters} />
        ))}
        {waiting.length > 0 && (
          <li className="chips__more">
            <Popover
              label={
                <>
                  +{waiting.length} more<span className="visually-hidden">: {waiting.map((c) => c.label).join('; ')}</span>
                </>
              }
              title={`More filters in force: ${waiting.map((c) => c.label).join('; ')}`}
              testId="chips-more"
              className="popover--chips"
            >
              <ul className="chips chips--stacked" aria-label="More filters in force">
                {waiting.map((chip) => (
                  <Chip key={chip.id} chip={chip} filters={filters} />
                ))}
              </ul>
            </Popover>
          </li>
        )}
      </ul>
      <ul className="chips chips--measure" aria-hidden="true" ref={measure}>
        {chips.map((chip) => (
          <Chip key={chip.id} chip={chip} filters={filters} />
        ))}
      </ul>
    </div>
  );
}
