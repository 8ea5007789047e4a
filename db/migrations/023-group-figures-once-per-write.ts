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
import { createTrigger } from '../read-model/group-figures';
import { gated, listing, moves, MOVING_COLUMNS } from '../read-model/group-figures-moving';

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
