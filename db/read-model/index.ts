/**
 * The read model: the tables SQLite's triggers keep in step with each write, and what runtime
 * code reads of their declarations.
 */
export { REPORT_SCALARS, sourceOf } from './listing';
export { FIGURE_INDEXES, RECOUNT, SPLIT } from './listing-counts';
export { ARCHIVED_INDEX_COLUMNS, KEY_ORDER_INDEXES, NEW_FIGURE_INDEXES, REBUILT_COUNT_INDEXES, REBUILT_FIGURE_INDEXES, WALKED_TEXTS } from './listing-indexes';
export { CUSTOM_FIELD_KEPT, CUSTOM_FIELD_RECOUNT, CUSTOM_FIELD_TOTALS_SPLIT } from './custom-field-counts';
export {
  DECISIONS,
  GROUP_FIGURES_RECOUNT,
  GROUP_FIGURES_TABLES,
  keptRowHours,
  LEVELS,
  NONE,
  TIME_SPLIT,
  TIME_TOTALS_SPLIT,
  UNKEYED,
} from './group-figures';
export { FIGURE_SOURCES, HOLD_FIGURES, RELEASE_FIGURES } from './group-figures-moving';
export { PAIR_KEY, PAIR_RECOUNT, PAIR_ROWS } from './custom-field-pair-counts';
