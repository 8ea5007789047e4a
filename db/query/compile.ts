/**
 * Compiles a parsed ListQuery to SQL fragments for the list query, which reads one company's
 * rows of report_listing under the alias l (the listing migration: one narrow row per report the
 * company can see, its own flag and archive state included).
 *
 * Only constant text from the allow-list (fields.ts) and from this file goes into the SQL;
 * every value from the request is a bound positional parameter, in the order of `params`.
 *
 * Semantics:
 * - eq/gt/gte/lt/lte → `expr op ?`; neq → `(expr IS NULL OR expr <> ?)`, so it also matches NULL.
 *   Strings compare with SQLite's BINARY collation, which on UTF-8 is code point order.
 *   Instants: stored created/updated are canonical toISOString() text, the value is normalised
 *   the same way, so text order is time order. A value finer than a millisecond (see
 *   Condition.subMillisecond) is compared exactly: eq never holds, neq always holds,
 *   `gt`/`gte` t → `> floor(t)`, `lt`/`lte` t → `<= floor(t)`.
 *   Booleans compare with 0/1.
 * - like (case-sensitive) → GLOB with the pattern translated: `%`/`*` → `*`, `_` → `?`, literal
 *   `*`, `?`, `[` → `[*]`, `[?]`, `[[]`.
 * - ilike → `expr LIKE ? ESCAPE '\'` (folds ASCII case) when the pattern is ASCII; with a non-ASCII
 *   pattern → `unicode_lower(expr) LIKE ? ESCAPE '\'` with the pattern lower-cased by the same JS
 *   toLowerCase (register it with registerSqlFunctions). Known edge: with an ASCII pattern, a
 *   non-ASCII character whose lower case is ASCII (Kelvin sign K) does not match its ASCII letter.
 * - Patterns: `%` and `*` match any run, `_` one character; `\%`, `\_`, `\*`, `\\` are literals;
 *   a backslash before any other character (or at the end) is a literal backslash.
 * - includes on strings → `instr(expr, ?) > 0` (substring; an empty value matches every non-NULL).
 * - Searchable texts (reference, label uid, sequence code, name): when the pattern holds a
 *   literal run of 3 characters or more, the trigram index first picks the reports holding every
 *   such run (case folded: a superset of the matches), and the condition above decides; with
 *   shorter runs, or an ilike pattern outside ASCII (whose folding the index does not share),
 *   the condition alone decides.
 * - Array keys (access.*): EXISTS (SELECT 1 FROM access x WHERE x.label_report_id = l.id AND cond),
 *   so a condition holds when any element satisfies it; `includes` is membership (an element
 *   equals the value); neq → NOT EXISTS an element equal to the value.
 * - customFields: over custom_field_elements e, the elements of the stored JSON value (those of
 *   an array one by one, or the scalar itself), numbers in e.num and texts in e.text:
 *     · number element: eq/gt/gte/lt/lte compare numerically when the condition value parses as
 *       a number (strict grammar); otherwise a number element never matches. includes on a
 *       number element means numeric equality.
 *     · text element: eq/gt/gte/lt/lte compare as strings (code points) with the raw condition
 *       text, even when that text looks like a number ("10" vs "9" is text order); like/ilike
 *       match the pattern; includes is substring (so it also matches an equal element).
 *     · other JSON (true, false, null, nested arrays/objects — not written by the service) has
 *       no element, so it never matches.
 *   neq → NOT EXISTS an element that eq-matches; a report without the field therefore matches
 *   only neq, as does one whose elements all differ. The matches are collected from the element
 *   index (`l.rk IN (…)`); when the store counts that many elements match that a page walking its
 *   order would fill sooner (ElementCounts), the page tests each report's elements instead
 *   (`EXISTS (… e.rk = l.rk …)`, `pageWhere`): the same reports either way.
 * - order: `<expr> ASC|DESC, l.id ASC`. SQLite sorts NULL lowest, so NULLs come first ascending
 *   and last descending, as decided. With a comparison on a rare-value key, `+<expr>`: the same
 *   order, sorted from that key's index (see compileOrder). By a key of few values (orderValues),
 *   the page is a UNION ALL of one range per value and per gap, each read from the key's index
 *   in id order, merged by `sort_key ASC|DESC, id ASC`: the same order, as the ranges split the
 *   rows exactly once (see valueRanges). Descending by a key of long runs of equal values
 *   (FieldColumn.boundaryOrder), the ranges are the rows above the value at the page's last
 *   position, the rows equal to it and the NULLs (see boundaryRanges); by the owner company,
 *   one prefix of each owner's rows in id order (see ownerRanges). Either way the same order.
 */
import { lookupField, type FieldDef } from '../../query/fields';
import { ARCHIVED_INDEX_COLUMNS, SEARCHED_COLUMNS, WALKED_TEXTS } from '../read-model';
import { FIELD_COLUMNS, type FieldColumn } from './field-columns';
import type { Condition, CustomFieldCondition, ListQuery, Operator } from '../../query/list-query';

export interface CompiledListQuery {
  /** SQL boolean expression, '1' when there is no condition. */
  where: string;
  /** Positional '?' parameters, in order. */
  params: unknown[];
  /**
   * e.g. "l.created DESC, l.id ASC"; over the result columns `sort_key` and `id` when the page
   * reads `ranges`.
   */
  orderBy: string;
  /**
   * Set when the order key is one of few values (see FieldColumn.orderValues): the page selects
   * `l.id, <sortKey> AS sort_key` once per range (each a condition on the order key with its own
   * parameters, after those of `where`), joined by UNION ALL and merged by `orderBy`. The ranges
   * split every row exactly once: NULL, each value, and the gaps below, between and above them.
   */
  ranges?: { sortKey: string; conditions: { where: string; params: unknown[] }[] };
  /**
   * For the page only, when it differs from `where` (same parameters, same matches): a custom
   * field condition many reports meet is tested report by report while the page walks its
   * order's index, which stops at the page, instead of collecting every match to sort them.
   */
  pageWhere?: { replaces: string; where: string };
  /**
   * Set to `where` when every condition tests only columns listing_counts splits by
   * (FieldColumn.counted): that `where` reads the same over the table's rows under the alias l,
   * and the sum of their counts is exactly the number of matches. A caller that narrows `where`
   * with a condition of its own leaves this (and `pageWhere.replaces`) naming the `where` it was
   * compiled for, so neither applies to the narrowed one.
   */
  counted?: string;
  /**
   * For the page only, when it may walk instead: a text search that many reports meet (its
   * rarest trigram names at least about √(page end × reports / TEXT_WALK_BUDGET) of them), in the
   * default order, with no custom field condition. The page then reads at most `budget` entries
   * of the company's default order that meet `where` (the filter without the search, with
   * `params`) from listing_archived, which carries the searched texts (migration 024), and keeps
   * those whose `column` meets `test` (with `testParams`): no listing row is read and nothing is
   * sorted but the page. When that leaves the page short, the page is read with the `where` it
   * `replaces`, which collects the search's candidates from the trigram index: the same rows
   * either way, as the walk's rows are the first ones of the order.
   */
  textWalk?: { replaces: string; where: string; params: unknown[]; column: string; test: string; testParams: unknown[]; budget: number };
  /**
   * For the page only, with `counted`: the same `where` and parameters with each key's column
   * unindexed (`+l.alert_level`), the archive state's aside (the index of the default order
   * starts with it). SQLite cannot tell from its statistics how many rows a range such as
   * `alert.level[gte]1` holds, and reads every match from the key's index to sort them: 200 000
   * at a million reports, 175 ms. Unindexed, the page walks its order's index and tests each row,
   * stopping at the page. The store takes this form when the kept counts say walking reads fewer
   * rows (page end × the company's rows ÷ matches) than sorting does (the matches of the most
   * selective condition alone, `each` being every condition with its parameters, read from its
   * key's index and tested for the others).
   */
  orderWalk?: { replaces: string; where: string; each: { where: string; params: unknown[] }[] };
  /**
   * Set when the filter is conditions listing_counts splits by and one comparison of a custom
   * field (eq, gt, gte, lt, lte): `where` (with `params`) reads the same over the kept rows of
   * custom_field_counts (migration 019) for `field` under the alias l, each row's `value` compared
   * as the condition compares an element. Their counts sum to the matches exactly when no report
   * holds two values of the field, which the kept rows themselves tell (see db/field-counts.ts);
   * otherwise, or once a caller narrowed the `where` it `replaces`, the matches are read.
   */
  countedByField?: { replaces: string; field: string; where: string; params: unknown[] };
  /**
   * For the page only, when a comparison searches an index of its own (SEARCHED_COLUMNS):
   * SQLite's statistics cannot tell a range few
   * reports meet from one most meet (`degreeHour[gt]10`), and it either sorts every match of the
   * key's index (200 000 at a million reports, 700 ms) or walks the order's whole index for a
   * range that holds nothing. The store counts each condition's matches in the company, up to
   * √(page end × reports) (`probes`, each with its own parameters; from the kept counts when
   * the filter is `counted`, and then with orderWalk's rule for the walk): when one holds fewer, the
   * page starts from that condition's index and sorts its few matches (`sorted[i]`, the order
   * unindexed and every other condition too); when each holds that many, the page walks the
   * order's index (`walk`, every condition unindexed) and, every √ rows holding a match, stops
   * within about √ rows. Either way a page reads about √(page end × reports) entries at most,
   * and the same rows: `where` and its parameters are the same but for unary `+`.
   */
  keyChoice?: {
    replaces: string;
    probes: { where: string; params: unknown[] }[];
    sorted: { where: string; orderBy: string; index: string }[];
    walk: { where: string; orderBy: string };
    /**
     * Every condition is tested inside listing_archived, the archive state among them (the
     * browser's filters): a walk of the default order steps inside that covering index, never
     * reading a listing row, and costs less than a sort of matches read row by row.
     */
    walksCovered: boolean;
  };
}

/**
 * What the trigram index holds, as far as it is known: how many reports hold a trigram (ASCII,
 * lower case, as the index folds it) in a column, or undefined when unknown. Only the speed of a
 * search depends on it: any trigram of a pattern's literal run picks a superset of the matches.
 */
export type TrigramFrequency = (column: string, trigram: string) => number | undefined;

/**
 * What the custom field elements hold, as far as the compiler asks: `countUpTo` runs `sql` (a
 * constant text of the compiler's, a count with a LIMIT as its last parameter) with `params`
 * and `cap` and answers its count; `reports` is about how many reports there are. Only the speed
 * of a page depends on them: either form of a custom field condition picks the same reports.
 */
export interface ElementCounts {
  countUpTo(sql: string, params: readonly unknown[], cap: number): number;
  reports(): number;
}

/**
 * The keys of the companies reports can be owned by (company_keys), as far as the compiler asks:
 * at most `cap` of them in ascending order, all there are when fewer. Only the speed of a page
 * depends on it: with every key known, an order by the owner merges one index range per owner.
 */
export interface OwnerKeys {
  upTo(cap: number): readonly number[];
}

/** Past this many owners, merging a range per owner costs more than sorting the matches. */
const MAX_OWNER_RANGES = 32;

const COMPARATORS: Partial<Record<Operator, string>> = { eq: '=', gt: '>', gte: '>=', lt: '<', lte: '<=' };

export function compileListQuery(given: ListQuery, frequency?: TrigramFrequency, elements?: ElementCounts, owners?: OwnerKeys): CompiledListQuery {
  // Every match of an equality on the order key holds the one value: their order is the tiebreak's.
  const tied = given.filter.some((cond) => cond.key === given.order.key && cond.op === 'eq');
  const q: ListQuery = tied ? { ...given, order: { key: 'id', direction: 'asc' } } : given;
  // Each condition compiled once: the `where` joins them, the kept-count and walk forms reuse them.
  const conditions = q.filter.map((cond) => compiledAlone(cond, frequency));
  const params: unknown[] = conditions.flatMap((c) => c.params);
  const parts: string[] = conditions.map((c) => c.where);
  const pageParts: string[] = [...parts];
  // Past this many matches (of `reports`), walking the order and testing each report reads
  // fewer entries than collecting every match: about page end / share against matches.
  const walkFrom = elements && Math.ceil(Math.sqrt(q.pageNumber * q.pageSize * Math.max(1, elements.reports())));
  for (const cond of q.customFields) {
    const { collect, perReport } = compileCustomField(cond, params, elements && walkFrom ? { elements, walkFrom } : undefined);
    parts.push(collect);
    pageParts.push(perReport);
  }
  const where = parts.length === 0 ? '1' : parts.map((p) => `(${p})`).join(' AND ');
  const pageWhere = pageParts.length === 0 ? '1' : pageParts.map((p) => `(${p})`).join(' AND ');
  const sortMatches = q.filter.some(startsFromRareValue);
  const values = FIELD_COLUMNS.get(q.order.key)?.orderValues;
  // A search or a custom field condition is a subquery each range would run again: its few
  // matches are sorted instead.
  const cheapFilter = q.customFields.length === 0 && !q.filter.some(readsTextIndex);
  const countedKeys = q.filter.every((cond) => FIELD_COLUMNS.get(cond.key)?.counted === true);
  const counted = q.customFields.length === 0 && countedKeys ? { counted: where } : {};
  const byField = countedKeys && q.customFields.length === 1 ? compileCountedByField(conditions, q.customFields[0]) : undefined;
  const countedByField = byField ? { countedByField: { replaces: where, ...byField } } : {};
  if (values && !sortMatches && cheapFilter) {
    return { where, params, orderBy: `sort_key ${q.order.direction === 'asc' ? 'ASC' : 'DESC'}, id ASC`, ranges: valueRanges(q.order.key, values), ...counted, ...countedByField };
  }
  const ownerKeys = FIELD_COLUMNS.get(q.order.key)?.byOwner && !sortMatches && cheapFilter ? owners?.upTo(MAX_OWNER_RANGES + 1) : undefined;
  if (ownerKeys && ownerKeys.length > 0 && ownerKeys.length <= MAX_OWNER_RANGES) {
    return { where, params, orderBy: `sort_key ${q.order.direction === 'asc' ? 'ASC' : 'DESC'}, id ASC`, ranges: ownerRanges(q.order.key, ownerKeys), ...counted, ...countedByField };
  }
  const boundary = FIELD_COLUMNS.get(q.order.key)?.boundaryOrder;
  if (boundary && q.order.direction === 'desc' && !sortMatches && cheapFilter) {
    return { where, params, orderBy: 'sort_key DESC, id ASC', ranges: boundaryRanges(q.order.key, boundary.nulls), ...counted, ...countedByField };
  }
  const textWalk = !sortMatches && elements && frequency ? compileTextWalk(q, frequency, elements) : undefined;
  const walkWhere = counted.counted !== undefined && !sortMatches ? q.filter.map((cond) => `(${compileCondition(cond, [], frequency, unindexCounted)})`).join(' AND ') : where;
  const keyChoice = cheapFilter ? compileKeyChoice(q, where) : undefined;
  return {
    where,
    params,
    orderBy: compileOrder(q.order, sortMatches),
    ...counted,
    ...countedByField,
    ...(pageWhere !== where ? { pageWhere: { replaces: where, where: pageWhere } } : {}),
    ...(textWalk ? { textWalk: { replaces: where, ...textWalk } } : {}),
    ...(walkWhere !== where && q.filter.length > 0 ? { orderWalk: { replaces: where, where: walkWhere, each: conditions } } : {}),
    ...(keyChoice ? { keyChoice } : {}),
  };
}

/** The listing column a key is, when it is one (not an expression). */
function columnName(key: string): string | undefined {
  const column = FIELD_COLUMNS.get(key);
  return column && /^l\.(\w+)$/.exec(column.sql)?.[1];
}

/** A comparison that searches an index of its own within the company's rows (see CompiledListQuery.keyChoice). */
function searchesOwnIndex(cond: Condition, order: ListQuery['order']): boolean {
  const column = FIELD_COLUMNS.get(cond.key);
  const name = columnName(cond.key);
  // A range of the order key itself is a range of the order's index: nothing to choose.
  // The archive state's index holds the default order itself: a page reads its range in order.
  return name !== undefined && name !== 'is_archived' && cond.key !== order.key && cond.op in COMPARATORS && SEARCHED_COLUMNS.has(name);
}

/** The page's forms for the store to choose from by the conditions' counts (CompiledListQuery.keyChoice). */
function compileKeyChoice(q: ListQuery, where: string): CompiledListQuery['keyChoice'] {
  const probed = q.filter.flatMap((cond, i) => (searchesOwnIndex(cond, q.order) ? [i] : []));
  if (probed.length === 0) return undefined;
  const form = (keep: number | undefined) =>
    q.filter.map((cond, i) => `(${compileCondition(cond, [], undefined, i === keep ? undefined : unindexAll)})`).join(' AND ');
  return {
    replaces: where,
    probes: probed.map((i) => compiledAlone(q.filter[i])),
    // Named: with its statistics SQLite may take a value every row holds for one no row holds.
    sorted: probed.map((i) => ({ where: form(i), orderBy: compileOrder(q.order, true), index: SEARCHED_COLUMNS.get(columnName(q.filter[i].key)!)! })),
    walk: { where: form(undefined), orderBy: compileOrder(q.order) },
    walksCovered:
      q.order.key === 'created' && q.order.direction === 'desc' &&
      q.filter.some((cond) => cond.key === 'isArchived' && cond.op === 'eq') &&
      q.filter.every(testedInsideArchivedIndex),
  };
}

/**
 * How many entries a walk may read per report its search's rarest trigram names: a walk's entry
 * is a step inside one index, a candidate collected from the trigram index a lookup of its
 * listing row, about twenty times the cost at a million reports. A walk that finds too few
 * rows then costs the collecting read about a fifth more.
 */
export const TEXT_WALK_BUDGET = 4;

/** The walk of the default order that a search many reports meet may take (CompiledListQuery.textWalk). */
function compileTextWalk(q: ListQuery, frequency: TrigramFrequency, elements: ElementCounts): Omit<NonNullable<CompiledListQuery['textWalk']>, 'replaces'> | undefined {
  if (q.customFields.length > 0 || q.order.key !== 'created' || q.order.direction !== 'desc') return undefined;
  const searches = q.filter.filter(readsTextIndex);
  if (searches.length !== 1) return undefined;
  const search = searches[0];
  // Only inside listing_archived is a walk's step cheap: an archive state to walk it by, and every
  // other condition on a column it holds. A walk that reads listing rows costs more than collecting.
  const others = q.filter.filter((cond) => cond !== search);
  if (!others.some((cond) => cond.key === 'isArchived' && cond.op === 'eq') || !others.every(testedInsideArchivedIndex)) return undefined;
  const { column } = requireField(search.key);
  if (!(WALKED_TEXTS as readonly string[]).includes(column.textColumn!)) return undefined;
  const op = search.op as 'like' | 'ilike' | 'includes';
  const rarest = rarestTrigram(column.textColumn!, literalRuns(op, String(search.value)), frequency);
  if (!rarest) return undefined;
  // Expected entries walked to fill the page: page end × reports / matches, with the rarest
  // trigram's reports standing for the matches (at most that many).
  const budget = TEXT_WALK_BUDGET * rarest.reports;
  if (q.pageNumber * q.pageSize * Math.max(1, elements.reports()) > budget * rarest.reports) return undefined;
  // The other conditions unindexed, as for orderWalk: the walk reads the order's index, never a key's.
  const params: unknown[] = [];
  const where = others.map((cond) => `(${compileCondition(cond, params, frequency, unindexCounted)})`).join(' AND ');
  const testParams: unknown[] = [];
  const test = scalar(column.sql, op, search.value, testParams);
  return { where, params, column: column.sql, test, testParams, budget };
}

/** Whether a condition names only columns listing_archived holds (migration 024). */
function testedInsideArchivedIndex(cond: Condition): boolean {
  const column = FIELD_COLUMNS.get(cond.key);
  if (!column || column.array) return false;
  const named = [...column.sql.matchAll(/\bl\.(\w+)/g)].map(([, name]) => name);
  return named.length > 0 && named.every((name) => name === 'is_archived' || (ARCHIVED_INDEX_COLUMNS as readonly string[]).includes(name));
}

/** NULL, each value, and what lies below, between and above them: every row in exactly one. */
function valueRanges(key: string, values: readonly (string | number)[]): NonNullable<CompiledListQuery['ranges']> {
  const x = requireField(key).column.sql;
  const conditions: { where: string; params: unknown[] }[] = [{ where: `${x} IS NULL`, params: [] }];
  values.forEach((value, i) => {
    conditions.push(i === 0 ? { where: `${x} < ?`, params: [value] } : { where: `${x} > ? AND ${x} < ?`, params: [values[i - 1], value] });
    conditions.push({ where: `${x} = ?`, params: [value] });
  });
  conditions.push({ where: `${x} > ?`, params: [values[values.length - 1]] });
  return { sortKey: x, conditions };
}

/**
 * Stand for what a range's condition knows only when the page is read: the caller's company id,
 * the `where` the page is read with (a caller may narrow the compiled one) and its parameters,
 * and the offset of the page's last row. bindRangeWhere and bindRangeParams put them in.
 */
export const COMPANY_ID: unique symbol = Symbol('company id');
export const WHERE_PARAMS: unique symbol = Symbol('parameters of the page\'s where');
export const PAGE_LAST: unique symbol = Symbol('offset of the page\'s last row');
const PAGE_WHERE = '/* the page where */';

/** A range's condition over the `where` the page is read with. */
export function bindRangeWhere(rangeWhere: string, where: string): string {
  return rangeWhere.replaceAll(PAGE_WHERE, `(${where})`);
}

/**
 * A range's parameters for a page of `limit` rows (negative: all of them) from `offset`, for
 * the company and the `where` (with its parameters) the page is read with.
 */
export function bindRangeParams(params: readonly unknown[], companyId: string, whereParams: readonly unknown[], limit: number, offset: number): unknown[] {
  // Without a limit no row is past the page's end: the boundary lies beyond every row.
  const last = limit < 0 ? Number.MAX_SAFE_INTEGER : offset + limit - 1;
  return params.flatMap((p) => (p === COMPANY_ID ? [companyId] : p === WHERE_PARAMS ? whereParams : p === PAGE_LAST ? [last] : [p]));
}

/**
 * Ordered descending by a key whose index holds (company, key, id): walked backwards, the index
 * gives equal values in descending id order, and the tiebreak is ascending, so SQLite would sort
 * each run of equal values, a long run whole. Instead the page reads the value at its last
 * position (PAGE_LAST) from the index (no tiebreak is needed to know it), then the rows above
 * that value (fewer than the page's end, sorted) and the rows equal to it (in id order from the
 * index), and the NULLs of a column that may hold them (last, in id order). Rows below that
 * value come after the page's end. When fewer rows than the page's end hold a value, the
 * boundary is the lowest value there is (-Infinity), so every valued row is above or equal to it.
 */
function boundaryRanges(key: string, nulls: boolean): NonNullable<CompiledListQuery['ranges']> {
  const x = requireField(key).column.sql;
  const boundary = `coalesce((SELECT ${x} FROM report_listing l WHERE l.ck = (SELECT k.ck FROM company_keys k WHERE k.company_id = ?) AND ${PAGE_WHERE} ORDER BY ${x} DESC LIMIT 1 OFFSET ?), -1e999)`;
  const boundaryParams = [COMPANY_ID, WHERE_PARAMS, PAGE_LAST];
  return {
    sortKey: x,
    conditions: [
      { where: `${x} > ${boundary}`, params: boundaryParams },
      { where: `${x} = ${boundary}`, params: boundaryParams },
      ...(nulls ? [{ where: `${x} IS NULL`, params: [] }] : []),
    ],
  };
}

/**
 * Ordered by the owner company's id, name or short code: all of one owner's rows share the value,
 * so its part of the page is a prefix of its rows in id order. One range per owner key takes that
 * prefix from the owner index (its rows up to the id at the page's last position among them, or
 * all when fewer), and the ranges are merged by the value itself, so owners sharing a name
 * interleave by id as a sort of all the matches would put them. Each range sorts at most the
 * page's end rows, never all the owner's. A key made after `keys` were read (keys only grow) has
 * a range of its own: empty unless a company was added meanwhile.
 */
function ownerRanges(key: string, keys: readonly number[]): NonNullable<CompiledListQuery['ranges']> {
  const x = requireField(key).column.sql;
  // X'' (a blob) sorts after every text: an owner with fewer rows than the page's end keeps all.
  const prefixEnd = `coalesce((SELECT l.id FROM report_listing l WHERE l.ck = (SELECT k.ck FROM company_keys k WHERE k.company_id = ?) AND l.owner_ck = ? AND ${PAGE_WHERE} ORDER BY l.id LIMIT 1 OFFSET ?), X'')`;
  return {
    sortKey: x,
    conditions: [
      ...keys.map((ck) => ({ where: `l.owner_ck = ? AND l.id <= ${prefixEnd}`, params: [ck, COMPANY_ID, ck, WHERE_PARAMS, PAGE_LAST] })),
      { where: 'l.owner_ck > ?', params: [keys[keys.length - 1]] },
    ],
  };
}

/** A text condition the trigram index narrows (see compileCondition). */
function readsTextIndex(cond: Condition): boolean {
  const column = FIELD_COLUMNS.get(cond.key);
  return (
    column?.textColumn !== undefined &&
    (cond.op === 'like' || cond.op === 'ilike' || cond.op === 'includes') &&
    trigramMatch(column.textColumn, cond.op, String(cond.value)) !== null
  );
}

/**
 * `sortMatches`: the order is not read from an index (a unary `+` makes the order expression
 * one no index holds; it changes no value, so not the order either). For a comparison on a
 * rare-value key, the planner's statistics (a bounded sample, and the company key a subquery)
 * cannot tell a value few reports share from one most share, and with a LIMIT it favours the
 * index that holds the order: it walks the company's whole created index, testing each row,
 * until the page fills. Started from the key's own index, the matches are sorted instead: at
 * worst all the company's rows (a bounded top-N sort, tens of ms at 100 000), against a walk of
 * the whole index for a rare value.
 */
export function compileOrder(order: ListQuery['order'], sortMatches = false): string {
  const { field, column } = requireField(order.key);
  if (field.array) throw new Error(`cannot order by array key ${order.key}`);
  const dir = order.direction === 'asc' ? 'ASC' : 'DESC';
  const unindexed = sortMatches ? '+' : '';
  return order.key === 'id' ? `${unindexed}l.id ${dir}` : `${unindexed}${column.sql} ${dir}, l.id ASC`;
}

/** A comparison that the key's rare-value index answers by a search (not neq, not a pattern). */
function startsFromRareValue(cond: Condition): boolean {
  return FIELD_COLUMNS.get(cond.key)?.rareValueIndex === true && cond.op in COMPARATORS;
}

function requireField(key: string): { field: FieldDef; column: FieldColumn } {
  const field = lookupField(key);
  const column = FIELD_COLUMNS.get(key);
  // The parser only lets allow-listed keys through; this guards a ListQuery built elsewhere.
  if (!field || !column) throw new Error(`not an allow-listed key: ${JSON.stringify(key)}`);
  return { field, column };
}

/**
 * The filter over custom_field_counts' rows of one field (CompiledListQuery.countedByField): the
 * compiled key conditions as over the listing rows (the table splits by the same columns under the same
 * names), and the comparison on the row's value as compileCustomField makes it on an element: a
 * number condition compares numbers with the number and texts with its text, a text condition
 * only texts. The row marking that a report holds the field (a blob) is never picked.
 */
function compileCountedByField(
  keys: readonly { where: string; params: unknown[] }[],
  cond: CustomFieldCondition,
): { field: string; where: string; params: unknown[] } | undefined {
  const op = COMPARATORS[cond.op];
  if (!op) return undefined;
  const params: unknown[] = keys.flatMap((k) => k.params);
  const parts = keys.map((k) => k.where);
  if (cond.number === null) {
    parts.push(`typeof(l.value) = 'text' AND l.value ${op} ?`);
    params.push(cond.value);
  } else {
    parts.push(`(typeof(l.value) IN ('integer', 'real') AND l.value ${op} ?) OR (typeof(l.value) = 'text' AND l.value ${op} ?)`);
    params.push(cond.number, cond.value);
  }
  return { field: cond.customFieldId, where: parts.map((p) => `(${p})`).join(' AND '), params };
}

/** One condition as a `where` of its own, with its parameters. */
function compiledAlone(cond: Condition, frequency?: TrigramFrequency): { where: string; params: unknown[] } {
  const params: unknown[] = [];
  return { where: compileCondition(cond, params, frequency), params };
}

/** A key the kept counts split by, named as `+column` for CompiledListQuery.orderWalk. */
const unindexCounted = (column: FieldColumn) => column.counted === true;
/** Every column of the listing row, named as `+column` for CompiledListQuery.keyChoice. */
const unindexAll = (column: FieldColumn) => column.array === undefined && /^l\.\w+$/.test(column.sql);

/**
 * `unindex`: the columns named as `+column`, which no index answers (see
 * CompiledListQuery.orderWalk and keyChoice); the archive state keeps its index, the one of
 * the browser's default order. Same parameters either way.
 */
function compileCondition(cond: Condition, params: unknown[], frequency?: TrigramFrequency, unindex?: (column: FieldColumn) => boolean): string {
  const found = requireField(cond.key);
  const column = unindex?.(found.column) && found.column.sql !== 'l.is_archived' ? { ...found.column, sql: `+${found.column.sql}` } : found.column;
  if (column.array) {
    const { from, link } = column.array;
    const exists = (elementCondition: string) => `EXISTS (SELECT 1 FROM ${from} WHERE ${link} AND ${elementCondition})`;
    const value = String(cond.value);
    if (cond.op === 'neq' || cond.op === 'eq' || cond.op === 'includes') {
      params.push(value);
      const any = exists(`${column.sql} = ?`);
      return cond.op === 'neq' ? `NOT ${any}` : any;
    }
    return exists(scalar(column.sql, cond.op, value, params));
  }
  let value: unknown = cond.value;
  if (typeof value === 'boolean') value = value ? 1 : 0;
  if (cond.subMillisecond) {
    switch (cond.op) {
      case 'eq':
        return '0';
      case 'neq':
        return '1';
      case 'gt':
      case 'gte':
        params.push(value);
        return `${column.sql} > ?`;
      case 'lt':
      case 'lte':
        params.push(value);
        return `${column.sql} <= ?`;
      default:
        break;
    }
  }
  if (column.ownerKey && (cond.op === 'eq' || cond.op === 'neq')) {
    params.push(value);
    // neq: the keys of every other company, each one range of the owner index.
    return `${column === found.column ? '' : '+'}l.owner_ck ${cond.op === 'eq' ? '=' : 'IN'} (SELECT k.ck FROM company_keys k WHERE k.company_id ${cond.op === 'eq' ? '=' : '<>'} ?)`;
  }
  if (column.textColumn && (cond.op === 'like' || cond.op === 'ilike' || cond.op === 'includes')) {
    const match = trigramMatch(column.textColumn, cond.op, String(value), frequency);
    if (match !== null) {
      params.push(match);
      return `l.rk IN (SELECT rowid FROM report_text WHERE report_text MATCH ?) AND ${scalar(column.sql, cond.op, value, params)}`;
    }
  }
  return scalar(column.sql, cond.op, value, params);
}

/** `expr op value` for a scalar expression; pushes the parameter(s). */
function scalar(expr: string, op: Operator, value: unknown, params: unknown[]): string {
  switch (op) {
    case 'neq':
      params.push(value);
      return `(${expr} IS NULL OR ${expr} <> ?)`;
    case 'like':
      params.push(toGlob(String(value)));
      return `${expr} GLOB ?`;
    case 'ilike':
      return ilike(expr, String(value), params);
    case 'includes':
      params.push(String(value));
      return `instr(${expr}, ?) > 0`;
    default:
      params.push(value);
      return `${expr} ${COMPARATORS[op]} ?`;
  }
}

function ilike(expr: string, pattern: string, params: unknown[]): string {
  const like = toLikePattern(pattern);
  if (isAscii(pattern)) {
    params.push(like);
    return `${expr} LIKE ? ESCAPE '\\'`;
  }
  params.push(like.toLowerCase());
  return `unicode_lower(${expr}) LIKE ? ESCAPE '\\'`;
}

/** The index reads literal runs of at least this many characters (trigrams). */
const TRIGRAM = 3;

/**
 * The MATCH expression that picks every report whose `column` may satisfy the condition: it
 * holds each literal run of the pattern, case folded. Null when no run is long enough, or when
 * the index's folding could miss a match (an ilike pattern outside ASCII).
 *
 * When `frequency` knows every trigram of the runs (ASCII runs), the expression asks for the one
 * trigram fewest reports hold instead: a search for `po-12` among references that all start with
 * `PO-` then reads the short list of `-12`, not the lists of `po-` and `o-1`, which name every
 * report. The condition itself still decides each candidate.
 */
function trigramMatch(column: string, op: 'like' | 'ilike' | 'includes', value: string, frequency?: TrigramFrequency): string | null {
  if (op === 'ilike' && !isAscii(value)) return null;
  const runs = literalRuns(op, value);
  if (runs.length === 0) return null;
  const phrase = (text: string) => `${column} : "${text.replaceAll('"', '""')}"`;
  const rarest = frequency && rarestTrigram(column, runs, frequency);
  return rarest ? phrase(rarest.trigram) : runs.map(phrase).join(' AND ');
}

/** The pattern's literal runs that the index can read: at least a trigram long, without NUL. */
function literalRuns(op: 'like' | 'ilike' | 'includes', value: string): string[] {
  const runs: string[] = [];
  let run = '';
  const tokens: PatternToken[] = op === 'includes' ? [{ kind: 'literal', text: value }] : tokenizePattern(value);
  for (const token of [...tokens, { kind: 'any' } as const]) {
    if (token.kind === 'literal') {
      run += token.text;
      continue;
    }
    if ([...run].length >= TRIGRAM && !run.includes('\0')) runs.push(run);
    run = '';
  }
  return runs;
}

/** The trigram of the runs that fewest reports hold, when every run is ASCII and each count is known. */
function rarestTrigram(column: string, runs: string[], frequency: TrigramFrequency): { trigram: string; reports: number } | null {
  if (!runs.every(isAscii)) return null;
  let best: { trigram: string; reports: number } | null = null;
  for (const run of runs) {
    const folded = run.toLowerCase();
    for (let i = 0; i + TRIGRAM <= folded.length; i++) {
      const trigram = folded.slice(i, i + TRIGRAM);
      const reports = frequency(column, trigram);
      if (reports === undefined) return null;
      if (best === null || reports < best.reports) best = { trigram, reports };
    }
  }
  return best;
}

/**
 * A custom field condition, `collect`ing its matches from the element index (what a count and a
 * page of few matches read), and the same `perReport`: each report's elements tested by their
 * primary key, for a page that walks its order. The two differ only when `walk` says the
 * condition's matches are many (at least `walkFrom` elements, counted up to there).
 */
function compileCustomField(
  cond: CustomFieldCondition,
  params: unknown[],
  walk?: { elements: ElementCounts; walkFrom: number },
): { collect: string; perReport: string } {
  const field = cond.customFieldId;
  /** Reports with an element matching `where`: one index range per kind of element. */
  const any = (...wheres: [string, ...unknown[]][]) => {
    const values = wheres.flatMap(([, ...v]) => [field, ...v]);
    params.push(...values);
    const collect = `l.rk IN (${wheres.map(([where]) => `SELECT e.rk FROM custom_field_elements e WHERE e.field = ? AND ${where}`).join(' UNION ALL ')})`;
    if (!walk) return { collect, perReport: collect };
    const probe = `SELECT count(*) FROM (${wheres.map(([where]) => `SELECT 1 FROM custom_field_elements e WHERE e.field = ? AND ${where}`).join(' UNION ALL ')} LIMIT ?)`;
    if (walk.elements.countUpTo(probe, values, walk.walkFrom) < walk.walkFrom) return { collect, perReport: collect };
    const perReport = wheres.map(([where]) => `EXISTS (SELECT 1 FROM custom_field_elements e WHERE e.rk = l.rk AND e.field = ? AND ${where})`);
    return { collect, perReport: perReport.length === 1 ? perReport[0] : `(${perReport.join(' OR ')})` };
  };
  const same = (sql: string) => ({ collect: sql, perReport: sql });
  switch (cond.op) {
    case 'neq': {
      params.push(field);
      const equal = cond.number === null ? 'e.text = ?' : '(e.num = ? OR e.text = ?)';
      params.push(...(cond.number === null ? [cond.value] : [cond.number, cond.value]));
      return same(`NOT EXISTS (SELECT 1 FROM custom_field_elements e WHERE e.rk = l.rk AND e.field = ? AND ${equal})`);
    }
    case 'like':
      return any(['e.text GLOB ?', toGlob(cond.value)]);
    case 'ilike': {
      const values: unknown[] = [];
      const where = ilike('e.text', cond.value, values);
      return any([`e.text IS NOT NULL AND ${where}`, ...values]);
    }
    case 'includes':
      return cond.number === null
        ? any(['e.text IS NOT NULL AND instr(e.text, ?) > 0', cond.value])
        : any(['e.text IS NOT NULL AND instr(e.text, ?) > 0', cond.value], ['e.num = ?', cond.number]);
    default: {
      const op = COMPARATORS[cond.op]!;
      return cond.number === null
        ? any([`e.text ${op} ?`, cond.value])
        : any([`e.num ${op} ?`, cond.number], [`e.text ${op} ?`, cond.value]);
    }
  }
}

type PatternToken = { kind: 'any' } | { kind: 'one' } | { kind: 'literal'; text: string };

/** Reads a like/ilike pattern: `%`/`*` any run, `_` one character, `\%` `\_` `\*` `\\` literals. */
export function tokenizePattern(pattern: string): PatternToken[] {
  const tokens: PatternToken[] = [];
  const chars = [...pattern];
  for (let i = 0; i < chars.length; i++) {
    const ch = chars[i];
    if (ch === '\\' && i + 1 < chars.length && '%_*\\'.includes(chars[i + 1])) {
      tokens.push({ kind: 'literal', text: chars[++i] });
    } else if (ch === '%' || ch === '*') {
      tokens.push({ kind: 'any' });
    } else if (ch === '_') {
      tokens.push({ kind: 'one' });
    } else {
      tokens.push({ kind: 'literal', text: ch });
    }
  }
  return tokens;
}

/** The SQLite GLOB pattern (case-sensitive) of a like pattern. */
export function toGlob(pattern: string): string {
  return tokenizePattern(pattern)
    .map((t) => {
      if (t.kind === 'any') return '*';
      if (t.kind === 'one') return '?';
      return t.text === '*' || t.text === '?' || t.text === '[' ? `[${t.text}]` : t.text;
    })
    .join('');
}

/** The SQLite LIKE pattern, for `ESCAPE '\'`, of a like pattern. */
export function toLikePattern(pattern: string): string {
  return tokenizePattern(pattern)
    .map((t) => {
      if (t.kind === 'any') return '%';
      if (t.kind === 'one') return '_';
      return t.text === '%' || t.text === '_' || t.text === '\\' ? `\\${t.text}` : t.text;
    })
    .join('');
}

export function isAscii(text: string): boolean {
  return /^[\x00-\x7f]*$/.test(text);
}
