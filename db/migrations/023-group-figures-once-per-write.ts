/**
 * Numbered, append-only: a shipped migration is never edited, a new one is added.
 *
 * A report's write moves its kept group figures (022) once. The listing writes each column that
 * moved in a statement of its own (017), and 022's triggers moved a report's figures out of
 * their kept rows and back in at every one of them: a tap that changes the alert level, the
 * excursions, their duration, the degree-hours and the MKT moved them five times, and each
 * transient state between could send the MKT's maximum to a search of the rows. At 3 000
 * reports of one day a tap cost 10 ms instead of 3.
 *
 * The write path (ReportStore.replace) now holds a report whose figures its change may move, in
 * `group_figures_moving`: a row `held` (company key 0) names the report, and while there is one,
 * 022's triggers skip its listing rows and decisions; a row `was` per listing row keeps it as it
 * was when the hold began, with its decision. Releasing deletes the `was` rows, whose trigger
 * takes their shares out, then writes the report's listing rows as they are now (`is`), whose
 * trigger puts them in, and deletes the report's rows. The table is empty outside a write, one
 * page of the log a held write. A change made without a hold (a review decision, a removal)
 * moves the figures through 022's triggers as before.
 *
 * The triggers' names start with `listing_`, so a bulk import sets them aside with the others.
 */
import { REPORT_SCALARS } from './006-listing';
import { sourceOf } from './017-listing-writes-what-changed';
import { createTrigger, decisionOf, LISTING_KEPT, listingTriggers, shareStatements, type KeptTrigger } from './022-group-figures';

/** The listing columns a share reads: each kept table's watched columns and the report id its decision is found by. */
const MOVING_COLUMNS = [...new Set(['id', ...LISTING_KEPT.flatMap((t) => t.watched)])];

/**
 * The label_reports columns whose change may move a report's figures (the listing columns a kept
 * table watches, as 017's triggers derive them, and the owner); a change of the report's access
 * or of a company's state of it may move them too.
 */
export const FIGURE_SOURCES: ReadonlySet<string> = new Set([
  'owner_company_id',
  ...REPORT_SCALARS.filter(([column]) => MOVING_COLUMNS.includes(column)).map(([, , value]) => sourceOf(value)),
]);

const notHeld = (rk: string) => `NOT EXISTS (SELECT 1 FROM group_figures_moving m WHERE m.rk = ${rk})`;
/** The report key of a review_current row. */
const rkOfDecision = (p: string) => `(SELECT r.rk FROM report_keys r WHERE r.report_id = ${p}.label_report_id)`;

/** 022's listing triggers, skipping a held report. */
function gated(trigger: KeptTrigger): KeptTrigger {
  const row = trigger.event.includes('DELETE') ? 'old' : 'new';
  const rk = trigger.event.endsWith('ON review_current') ? rkOfDecision('new') : `${row}.rk`;
  return { ...trigger, when: trigger.when === undefined ? notHeld(rk) : `(${trigger.when}) AND ${notHeld(rk)}` };
}

const listingRows = (part: 'was' | 'is') =>
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

const moves: KeptTrigger[] = [
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

const listing = LISTING_KEPT.flatMap(listingTriggers);

export default /* sql */ `
CREATE TABLE group_figures_moving (
  rk       INTEGER NOT NULL,
  ck       INTEGER NOT NULL,           -- 0 in the row that holds the report
  part     TEXT NOT NULL CHECK (part IN ('held', 'was', 'is')),
  ${MOVING_COLUMNS.map((c) => `${c} ANY`).join(',\n  ')},
  decision ANY,
  PRIMARY KEY (rk, ck, part)
) STRICT, WITHOUT ROWID;

${listing.map((t) => `DROP TRIGGER ${t.name};`).join('\n')}

${[...listing.map(gated), ...moves].map(createTrigger).join('\n\n')}
`;
