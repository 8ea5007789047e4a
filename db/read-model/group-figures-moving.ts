/** The read model: declarations moved out of the migrations that first wrote them. */
import { REPORT_SCALARS, sourceOf } from './listing';
import { createTrigger, decisionOf, LISTING_KEPT, listingTriggers, shareStatements, type KeptTrigger } from './group-figures';

// Moved from migration 023.

/** The listing columns a share reads: each kept table's watched columns and the report id its decision is found by. */
export const MOVING_COLUMNS = [...new Set(['id', ...LISTING_KEPT.flatMap((t) => t.watched)])];

/**
 * The label_reports columns whose change may move a report's figures (the listing columns a kept
 * table watches, as 017's triggers derive them, and the owner); a change of the report's access
 * or of a company's state of it may move them too.
 */
export const FIGURE_SOURCES: ReadonlySet<string> = new Set([
  'owner_company_id',
  ...REPORT_SCALARS.filter(([column]) => MOVING_COLUMNS.includes(column)).map(([, , value]) => sourceOf(value)),
]);

export const notHeld = (rk: string) => `NOT EXISTS (SELECT 1 FROM group_figures_moving m WHERE m.rk = ${rk})`;
/** The report key of a review_current row. */
export const rkOfDecision = (p: string) => `(SELECT r.rk FROM report_keys r WHERE r.report_id = ${p}.label_report_id)`;

/** 022's listing triggers, skipping a held report. */
export function gated(trigger: KeptTrigger): KeptTrigger {
  const row = trigger.event.includes('DELETE') ? 'old' : 'new';
  const rk = trigger.event.endsWith('ON review_current') ? rkOfDecision('new') : `${row}.rk`;
  return { ...trigger, when: trigger.when === undefined ? notHeld(rk) : `(${trigger.when}) AND ${notHeld(rk)}` };
}

export const listingRows = (part: 'was' | 'is') =>
  `INSERT INTO group_figures_moving (rk, ck, part, ${MOVING_COLUMNS.join(', ')}, decision)
  SELECT p.rk, p.ck, '${part}', ${MOVING_COLUMNS.map((c) => `p.${c}`).join(', ')}, ${decisionOf('p')}
    FROM report_listing p WHERE p.rk = ?`;

/** The statements that hold report key `?` (each takes it once). */
export const HOLD_FIGURES: readonly string[] = [`INSERT INTO group_figures_moving (rk, ck, part) VALUES (?, 0, 'held')`, listingRows('was')];

/** The statements that move the held report key `?`'s figures from where they were to where they are, and end the hold. */
export const RELEASE_FIGURES: readonly string[] = [
  `DELETE FROM group_figures_moving WHERE rk = ? AND part = 'was'`,
  listingRows('is'),
  'DELETE FROM group_figures_moving WHERE rk = ?',
];

export const moves: KeptTrigger[] = [
  {
    name: 'listing_group_figures_moving_left',
    event: 'AFTER DELETE ON group_figures_moving',
    when: `old.part = 'was'`,
    statements: LISTING_KEPT.flatMap((t) => shareStatements(t).remove('old', 'old.decision')),
  },
  {
    name: 'listing_group_figures_moving_arrived',
    event: 'AFTER INSERT ON group_figures_moving',
    when: `new.part = 'is'`,
    statements: LISTING_KEPT.flatMap((t) => shareStatements(t).add('new', 'new.decision')),
  },
];

export const listing = LISTING_KEPT.flatMap(listingTriggers);
