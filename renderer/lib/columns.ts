/**
 * The report table's columns: which exist, how wide they may be, which a person may hide, and
 * which are shown until they choose. Reference and Alert stay on the left and cannot be hidden:
 * they say which shipment a row is and whether it needs a look.
 */
import type { SortColumn } from './list-query';

export const COLUMN_IDS = ['reference', 'alert', 'label', 'status', 'strip', 'decision', 'mode', 'type', 'created', 'updated', 'flag', 'archived'] as const;
export type ColumnId = (typeof COLUMN_IDS)[number];

export interface ColumnInfo {
  title: string;
  /** The order key the header sorts by; none for a column the list cannot be ordered by (the decision is the review's, not the list's). */
  sort?: SortColumn;
  /** Narrowest width in px; the reference column also takes any room left over. */
  minWidth: number;
  grows?: boolean;
}

export const COLUMN_INFO: Record<ColumnId, ColumnInfo> = {
  reference: { title: 'Reference', sort: 'reference', minWidth: 180, grows: true },
  alert: { title: 'Alert', sort: 'alert', minWidth: 136 },
  label: { title: 'Label', sort: 'label', minWidth: 160 },
  status: { title: 'Status', sort: 'status', minWidth: 108 },
  strip: { title: 'Out of range', sort: 'excursions', minWidth: 164 },
  decision: { title: 'Decision', minWidth: 120 },
  mode: { title: 'Mode', sort: 'mode', minWidth: 140 },
  type: { title: 'Type', sort: 'type', minWidth: 126 },
  created: { title: 'Created', sort: 'created', minWidth: 196 },
  updated: { title: 'Updated', sort: 'updated', minWidth: 196 },
  flag: { title: 'Flag', sort: 'flag', minWidth: 112 },
  archived: { title: 'Archived', sort: 'archived', minWidth: 124 },
};

/** Always shown, in this order, pinned to the left edge when the table scrolls sideways. */
export const PINNED_COLUMNS: readonly ColumnId[] = ['reference', 'alert'];

/**
 * What fits a 1280 px wide desk screen without scrolling sideways: the decision (what a reviewer
 * looks for), and Created, which the list is sorted by until a person chooses (list-query.ts's
 * DEFAULT_SORT), so the order is seen. Archived is left out, as archived reports are hidden until
 * a person asks for them.
 */
export const DEFAULT_COLUMNS: readonly ColumnId[] = ['reference', 'alert', 'label', 'status', 'strip', 'decision', 'created', 'flag'];

/** A stored or chosen set of columns as the table shows it: known ids only, pinned ones first, table order. */
export function normaliseColumns(value: unknown): ColumnId[] {
  if (!Array.isArray(value)) return [...DEFAULT_COLUMNS];
  const chosen = new Set(value.filter((v): v is ColumnId => (COLUMN_IDS as readonly string[]).includes(v)));
  for (const id of PINNED_COLUMNS) chosen.add(id);
  return COLUMN_IDS.filter((id) => chosen.has(id));
}

/**
 * Widths the screen measured for columns whose text it knows only when drawn (dates, in the
 * locale and zone in force); a column is never narrower than its own minimum.
 */
export type MeasuredWidths = Partial<Record<ColumnId, number>>;

function widthOf(id: ColumnId, measured: MeasuredWidths): number {
  return Math.max(COLUMN_INFO[id].minWidth, Math.ceil(measured[id] ?? 0));
}

/** CSS grid-template-columns for a set of columns. */
export function gridTemplate(columns: readonly ColumnId[], measured: MeasuredWidths = {}): string {
  return columns.map((id) => (COLUMN_INFO[id].grows ? `minmax(${widthOf(id, measured)}px, 1fr)` : `${widthOf(id, measured)}px`)).join(' ');
}

/** The width the columns need before the table scrolls sideways. */
export function minimumWidth(columns: readonly ColumnId[], measured: MeasuredWidths = {}): number {
  return columns.reduce((sum, id) => sum + widthOf(id, measured), 0);
}
