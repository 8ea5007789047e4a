/**
 * A filter of the kept keys and one comparison of a custom field, counted from the kept rows of
 * custom_field_counts (migration 019) instead of from its matches (CompiledListQuery.countedByField).
 *
 * Those rows count a report once per value it holds, so their sum over the values a condition
 * picks is the number of matching reports only when no report holds two values of the field.
 * The kept rows tell: the field's value rows sum to its holding rows (one per report holding the
 * field) exactly then. At a million reports `customFields=pallets[gte]20` is then a sum of a few
 * hundred rows, where reading its 400 000 matches took 0.4 s for the list's count and 0.9 s for
 * the insights' facets of the fixed keys.
 */
import type { Statement } from 'better-sqlite3';
import { CUSTOM_FIELD_TOTALS_SPLIT, PAIRED_FIELDS, widePairRows } from './read-model';

/** What the stores hand over: their statement cache, and whether a table is there. */
export interface FieldCountsAccess {
  statement(sql: string): Statement;
  hasTable(name: string): boolean;
}

export interface CountedByField {
  replaces: string;
  field: string;
  where: string;
  params: readonly unknown[];
}

const COMPANY = 'l.ck = (SELECT k.ck FROM company_keys k WHERE k.company_id = ?)';

/**
 * The rows to sum, as `FROM … WHERE …` over the alias l with their parameters after the company
 * id, when the filter's `where` is still the one compiled and the field's counts are exact;
 * otherwise undefined.
 */
export function keptFieldRows(
  access: FieldCountsAccess,
  companyId: string,
  filter: { where: string; countedByField?: CountedByField },
): { from: string; params: unknown[] } | undefined {
  const byField = filter.countedByField;
  if (!byField || byField.replaces !== filter.where || !oneValueEach(access, companyId, byField.field)) return undefined;
  return { from: `FROM custom_field_counts l WHERE ${COMPANY} AND l.field = ? AND (${byField.where})`, params: [companyId, byField.field, ...byField.params] };
}

/**
 * The pair rows (migrations 025 and 028) to sum for the facet of custom field `counted` under the filter's
 * comparison of another field, as keptFieldRows: `l.other_value` is the counted field's value (or
 * the blob of holding it). Only where the filter's other conditions test the columns the pairs
 * split by (owner, flag, archive state); otherwise undefined.
 */
export function keptPairRows(
  access: FieldCountsAccess,
  companyId: string,
  filter: { where: string; countedByField?: CountedByField },
  counted: string,
): { from: string; params: unknown[] } | undefined {
  const byField = filter.countedByField;
  if (!byField || byField.replaces !== filter.where || byField.field === counted || !access.hasTable('custom_field_pair_counts')) return undefined;
  if (!columnsTested(byField.where).every((column) => column === 'value' || CUSTOM_FIELD_TOTALS_SPLIT.includes(column))) return undefined;
  if (!access.hasTable('custom_field_widths') || !oneValueEach(access, companyId, byField.field)) return undefined;
  const kept = {
    from: `FROM custom_field_pair_counts l WHERE ${COMPANY} AND l.field = ? AND l.other_field = ? AND (${byField.where})`,
    params: [companyId, byField.field, counted, ...byField.params],
  };
  // The pairs of the reports holding more fields than PAIRED_FIELDS are not kept: they are added
  // from those reports' elements, found by the widths' partial index. Where there is none, the
  // pairs alone are read: through the compound they cost 13 % more.
  const anyWide = access.statement(`SELECT EXISTS (SELECT 1 FROM custom_field_widths WHERE fields > ${PAIRED_FIELDS})`).pluck().get() as number;
  if (!anyWide) return kept;
  const CK = '(SELECT k.ck FROM company_keys k WHERE k.company_id = ?)';
  return {
    from: `FROM (SELECT l.other_value AS other_value, l.n AS n ${kept.from}
      UNION ALL SELECT l.other_value, l.n FROM (${widePairRows(CK, '?', '?')}) l WHERE (${byField.where})) l`,
    params: [...kept.params, companyId, byField.field, counted, companyId, byField.field, counted, ...byField.params],
  };
}

/** The columns of the alias l a compiled condition tests, once each time it names one. */
export function columnsTested(where: string): string[] {
  return [...where.matchAll(/\bl\.(\w+)/g)].map(([, column]) => column);
}

/** Every report the company sees that holds `field` holds one value of it, by the kept counts. */
function oneValueEach(access: FieldCountsAccess, companyId: string, field: string): boolean {
  if (!access.hasTable('custom_field_counts') || !access.hasTable('custom_field_totals')) return false;
  // The coarse table holds the same counts per value in fewer rows: the holding rows (a blob)
  // subtracted from the value rows leave 0 exactly when every holder holds one value.
  const excess = access
    .statement(`SELECT coalesce(sum(CASE WHEN typeof(l.value) = 'blob' THEN -l.n ELSE l.n END), 0) FROM custom_field_totals l WHERE ${COMPANY} AND l.field = ?`)
    .pluck()
    .get(companyId, field) as number;
  return excess === 0;
}
