/**
 * The read model: the tables SQLite's triggers keep in step with each write, each declared once
 * (./declaration.ts), in the order a bulk load rebuilds them (a table made from another comes
 * after it). Runtime code and tests read the read model here; the migrations wrote it out as it
 * stood when each shipped, and a test checks that the migrated schema is what this declares.
 */
import type { DeclaredIndex, DeclaredTrigger, KeptTableDeclaration } from './declaration';
import { LISTING } from './listing';
import { LISTING_COUNTS } from './listing-counts';
import { CUSTOM_FIELD_COUNTS } from './custom-field-counts';
import { GROUP_FIGURES } from './group-figures';
import { CUSTOM_FIELD_PAIR_COUNTS } from './custom-field-pair-counts';
import { REVIEW_CURRENT } from './review-current';
import { SHIPMENT_COUNTS, SHIPMENTS } from './shipments';

export type { DeclaredIndex, DeclaredTable, DeclaredTrigger, KeptRead, KeptTableDeclaration } from './declaration';
export { REPORT_SCALARS, sourceOf } from './listing';
export { RECOUNT, SPLIT } from './listing-counts';
export { ARCHIVED_INDEX_COLUMNS, FIGURE_INDEXES, KEY_ORDER_INDEXES, NEW_FIGURE_INDEXES, REBUILT_COUNT_INDEXES, REBUILT_FIGURE_INDEXES, SEARCHED_COLUMNS, WALKED_TEXTS } from './listing-indexes';
export { CUSTOM_FIELD_KEPT, CUSTOM_FIELD_RECOUNT, CUSTOM_FIELD_TOTALS_SPLIT } from './custom-field-counts';
export {
  DECISIONS,
  FIGURE_SOURCES,
  GROUP_FIGURES_RECOUNT,
  GROUP_FIGURES_TABLES,
  HOLD_FIGURES,
  keptRowHours,
  LEVELS,
  NONE,
  RELEASE_FIGURES,
  TIME_SPLIT,
  TIME_TOTALS_SPLIT,
  UNKEYED,
} from './group-figures';
export { PAIR_KEY, PAIR_RECOUNT, PAIR_ROWS, PAIRED_FIELDS, WIDTH_ROWS, widePairRows } from './custom-field-pair-counts';

/** Every kept table's declaration, in rebuild order. */
export const READ_MODEL: readonly KeptTableDeclaration[] = [LISTING, LISTING_COUNTS, CUSTOM_FIELD_COUNTS, GROUP_FIGURES, CUSTOM_FIELD_PAIR_COUNTS, REVIEW_CURRENT, SHIPMENTS, SHIPMENT_COUNTS];

/** What a bulk load sets aside for its writes and makes again after: triggers and indexes, in the order they are made again. */
export interface BulkLoadPlan {
  triggers: readonly DeclaredTrigger[];
  indexes: readonly DeclaredIndex[];
  /** The declarations' rebuild SQL, in order: what follows the writes, before the triggers and indexes come back. */
  rebuild: readonly string[];
}

/** The bulk load's plan, from the declarations that a bulk load rebuilds. */
export function bulkLoadPlan(model: readonly KeptTableDeclaration[] = READ_MODEL): BulkLoadPlan {
  const rebuilt = model.filter((d) => d.bulkLoad === 'rebuilt');
  return {
    triggers: rebuilt.flatMap((d) => d.triggers),
    indexes: rebuilt.flatMap((d) => d.indexes.filter((i) => !i.keptThroughBulkLoad)),
    rebuild: rebuilt.map((d) => d.rebuild),
  };
}
