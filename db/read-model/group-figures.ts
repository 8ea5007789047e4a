/**
 * The insights' group figures: per company view, sums of every figure a group answers (reports,
 * reports with excursions, excursions, seconds out of range, degree-hours, MKT sum and count for
 * the mean, the MKT's maximum, reports per alert level and per current decision of the viewing
 * company).
 *
 * - `group_figures_time`, per UTC day of the created time and of the start of the recording
 *   (`field` 0 and 1), split by owner, flag and archive state (the filters of a company's own
 *   view). The first and last UTC day of each month are kept per UTC hour: a zone whose offsets
 *   are whole hours starts its months on a UTC hour within a day of the UTC month's edge, so
 *   such a month is whole UTC days plus these hours. `at` is the hour (hours since 1970) a row
 *   starts at: a day's row starts at its midnight and spans 24 hours, an edge day's rows one hour
 *   each. A report without a start time counts under `at` = NONE (the group `null`), one whose
 *   time the reader's parse might read otherwise (a created time not written as
 *   `YYYY-MM-DDTHH:MM:SS[.fff]Z`, a start time not a number of seconds between 1900 and 9999)
 *   under UNKEYED, which sends the question to the one-pass read of the matches.
 * - `group_figures_time_totals`, the same split by archive state alone: the rows an unfiltered
 *   question or the browser's "not archived" sums, a third as many. Its triggers are on
 *   group_figures_time: each change of a finer row moves its sum by the difference.
 * - `group_figures_split`, without time, split by every column listing_counts splits by and by the
 *   range each distribution puts the report in (`bin_*`, -1: in none, the group `null`), for
 *   splits by a fixed key and the distributions under any filter of those columns.
 * - `group_figures_moving`, empty outside a write: the write path (ReportStore.replace) holds a
 *   report whose figures its change may move, so that they move once per write rather than once
 *   per listing column written.
 *
 * Each table's columns carry report_listing's names, so a compiled browser filter over the alias
 * l reads the same over it. The decision is that of review_current for the row's company:
 * triggers there move a listing row's counts from one decision to the other.
 *
 * The MKT's maximum is kept per row: a report coming in raises it at once; one leaving (or
 * lowering its MKT) that held it reads the row's reports again, an index search: the hour or day
 * of created or start time in its index, or, without time, the MKT index downwards from the old
 * maximum. A sum cannot give it back.
 *
 * Every statement finds its kept rows by primary key: a compound of key rows is wrapped as
 * `IN (SELECT * FROM (a UNION ALL b))`, which SQLite searches key by key (`(tuple) IN (a UNION
 * ALL b)` scans the whole table). Not an upsert: inside a trigger, the conflict clause of the
 * outer statement would take its place.
 */
import { table, triggers, type KeptTableDeclaration } from './declaration';
import { REPORT_SCALARS, sourceOf } from './listing';
import { SPLIT } from './listing-counts';

/** `at` of a report without a start time: the group `null`. */
export const NONE = 9_007_199_254_740_991;
/** `at` of a time the kept rows cannot place for certain: such a question reads the matches. */
export const UNKEYED = 9_007_199_254_740_990;

/** The columns group_figures_time splits by besides the time. */
export const TIME_SPLIT: readonly string[] = ['owner_ck', 'has_flag', 'is_archived'];
/**
 * group_figures_time_totals' split: the archive state alone, the browser's filter when no other
 * is set. A third of the rows of the finer split to sum (a month group-by of two years of a
 * company reads some 3 000 rows instead of 10 000 at 100 000 reports).
 */
export const TIME_TOTALS_SPLIT: readonly string[] = ['is_archived'];
/** The columns group_figures_split splits by: listing_counts' own. */
const FIXED_SPLIT: readonly string[] = SPLIT.map(([c]) => c);

/** The distributions' ranges as the list's filters cut them (contract/insights-tables.ts), by report_listing column. */
const BIN_COLUMNS = {
  bin_seconds: 'calc_violation_duration_all',
  bin_degree_hours: 'calc_degree_hour',
  bin_mkt: 'calc_mean_kinetic_temperature',
} as const;

const binOf = (p: string) => ({
  bin_seconds: `CASE WHEN ${p}.calc_violation_duration_all = 0 THEN 0
    WHEN ${p}.calc_violation_duration_all > 0 AND ${p}.calc_violation_duration_all <= 3600 THEN 1
    WHEN ${p}.calc_violation_duration_all > 3600 AND ${p}.calc_violation_duration_all <= 21600 THEN 2
    WHEN ${p}.calc_violation_duration_all > 21600 AND ${p}.calc_violation_duration_all <= 86400 THEN 3
    WHEN ${p}.calc_violation_duration_all > 86400 THEN 4 ELSE -1 END`,
  bin_degree_hours: `CASE WHEN ${p}.calc_degree_hour <= 0 THEN 0
    WHEN ${p}.calc_degree_hour > 0 AND ${p}.calc_degree_hour <= 1 THEN 1
    WHEN ${p}.calc_degree_hour > 1 AND ${p}.calc_degree_hour <= 10 THEN 2
    WHEN ${p}.calc_degree_hour > 10 AND ${p}.calc_degree_hour <= 100 THEN 3
    WHEN ${p}.calc_degree_hour > 100 THEN 4 ELSE -1 END`,
  bin_mkt: `CASE WHEN ${p}.calc_mean_kinetic_temperature < 2 THEN 0
    WHEN ${p}.calc_mean_kinetic_temperature >= 2 AND ${p}.calc_mean_kinetic_temperature < 8 THEN 1
    WHEN ${p}.calc_mean_kinetic_temperature >= 8 AND ${p}.calc_mean_kinetic_temperature < 15 THEN 2
    WHEN ${p}.calc_mean_kinetic_temperature >= 15 AND ${p}.calc_mean_kinetic_temperature < 25 THEN 3
    WHEN ${p}.calc_mean_kinetic_temperature >= 25 THEN 4 ELSE -1 END`,
});

/** a ÷ b rounded down, for an integer a of either sign. */
const floorDiv = (a: string, b: number) => `(((${a}) - ((((${a}) % ${b}) + ${b}) % ${b})) / ${b})`;
/** A number rounded down to an integer. */
const floorInt = (x: string) => `(CAST(${x} AS INTEGER) - ((${x}) < CAST(${x} AS INTEGER)))`;
/** The UTC day `d` (days since 1970) is the first or the last of its month. */
const edgeDay = (d: string) => `(strftime('%d', (${d}) * 86400, 'unixepoch') = '01' OR strftime('%d', (${d}) * 86400 + 86400, 'unixepoch') = '01')`;
/** The row an hour `h` (hours since 1970) is kept in: itself on an edge day, its day's midnight otherwise. */
const rowOfHour = (h: string) => `(SELECT CASE WHEN ${edgeDay('d')} THEN h ELSE d * 24 END FROM (SELECT h, ${floorDiv('h', 24)} AS d FROM (SELECT ${h} AS h)))`;
/** The hour after the last one the row starting at `at` spans. */
const rowEnd = (at: string) => `CASE WHEN ((((${at}) % 24) + 24) % 24) <> 0 OR ${edgeDay(floorDiv(at, 24))} THEN (${at}) + 1 ELSE (${at}) + 24 END`;
/** Seconds since 1970 within the years both parses agree on. */
const inRange = (s: string) => `(${s}) >= -2208988800 AND (${s}) < 253402300800`;

/**
 * The row of a created time: written as `toISOString` writes it (the fraction optional), read
 * back to the same date and time, so JavaScript's parse, which the one-pass read uses, reads the
 * same instant.
 */
const createdAt = (p: string) => `(SELECT CASE WHEN (c GLOB '[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]T[0-9][0-9]:[0-9][0-9]:[0-9][0-9]Z'
      OR (c GLOB '[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]T[0-9][0-9]:[0-9][0-9]:[0-9][0-9].[0-9]*Z'
          AND length(c) <= 30 AND substr(c, 21, length(c) - 21) NOT GLOB '*[^0-9]*'))
    AND strftime('%Y-%m-%dT%H:%M:%S', s, 'unixepoch') = substr(c, 1, 19) AND ${inRange('s')}
  THEN ${rowOfHour(floorDiv('s', 3600))} ELSE ${UNKEYED} END FROM (SELECT ${p}.created AS c, unixepoch(${p}.created) AS s))`;

/** The row of a start time: seconds, integer or not; none: NONE. */
const startAt = (p: string) => `(SELECT CASE WHEN v IS NULL THEN ${NONE}
  WHEN typeof(v) IN ('integer', 'real') AND ${inRange('v')}
  THEN ${rowOfHour(floorDiv(floorInt('v'), 3600))} ELSE ${UNKEYED} END FROM (SELECT ${p}.calc_start_time AS v))`;

/** The current decision of the listing row's company on its report (review_current, by key). */
const decisionOf = (p: string) =>
  `(SELECT rc.decision FROM review_current rc WHERE rc.label_report_id = ${p}.id AND rc.company_id = (SELECT k.company_id FROM company_keys k WHERE k.ck = ${p}.ck))`;

/** [kept column, decision]: the reports per current decision. */
export const DECISIONS = [
  ['released', 'released'],
  ['rejected', 'rejected'],
  ['on_hold', 'onHold'],
] as const;
/** [kept column, alert level]: the reports per level (-1: none). */
export const LEVELS = [
  ['level_none', -1],
  ['level_0', 0],
  ['level_1', 1],
  ['level_2', 2],
] as const;

/** [column, type, one listing row's share (alias p, its decision d)]: what each kept row sums. */
const FIGURES: readonly (readonly [string, string, (p: string, d: string) => string])[] = [
  ['n', 'INTEGER', () => '1'],
  ['with_excursions', 'INTEGER', (p) => `coalesce(${p}.calc_violations_all > 0, 0)`],
  ['excursions', 'REAL', (p) => `coalesce(${p}.calc_violations_all, 0)`],
  ['seconds_out', 'REAL', (p) => `coalesce(${p}.calc_violation_duration_all, 0)`],
  ['degree_hours', 'REAL', (p) => `coalesce(${p}.calc_degree_hour, 0)`],
  ['mkt_sum', 'REAL', (p) => `coalesce(${p}.calc_mean_kinetic_temperature, 0)`],
  ['mkt_n', 'INTEGER', (p) => `(${p}.calc_mean_kinetic_temperature IS NOT NULL)`],
  ...LEVELS.map(([column, level]) => [column, 'INTEGER', (p: string) => `(${p}.alert_level = ${level})`] as const),
  ...DECISIONS.map(([column, decision]) => [column, 'INTEGER', (_: string, d: string) => `coalesce(${d} = '${decision}', 0)`] as const),
];
/** The same figures summed over listing rows `p` with their decisions `d`, for a recount. */
const SUMMED: Record<string, (p: string, d: string) => string> = {
  n: () => 'count(*)',
  with_excursions: (p) => `coalesce(sum(${p}.calc_violations_all > 0), 0)`,
  excursions: (p) => `total(${p}.calc_violations_all)`,
  seconds_out: (p) => `total(${p}.calc_violation_duration_all)`,
  degree_hours: (p) => `total(${p}.calc_degree_hour)`,
  mkt_sum: (p) => `total(${p}.calc_mean_kinetic_temperature)`,
  mkt_n: (p) => `count(${p}.calc_mean_kinetic_temperature)`,
  ...Object.fromEntries(LEVELS.map(([column, level]) => [column, (p: string) => `coalesce(sum(${p}.alert_level = ${level}), 0)`])),
  ...Object.fromEntries(DECISIONS.map(([column, decision]) => [column, (_: string, d: string) => `coalesce(sum(${d} = '${decision}'), 0)`])),
};
const FIGURE_COLUMNS: readonly string[] = [...FIGURES.map(([c]) => c), 'mkt_max'];

interface KeptTable {
  table: string;
  /** Key columns and their types. */
  key: readonly (readonly [string, string])[];
  /** The key rows a listing row `p` counts under (one or more, selected as the key's columns), each `SELECT … <from>`. */
  keysOf: (p: string, from?: string) => string;
  /** The MKT's maximum over the listing rows of the kept row `t`, below or at `below`, read again by an index search. */
  maxOf: (t: string, below: string) => string;
  /**
   * Whether a listing row of the kept row `t` holds the MKT `value`: found through the MKT index
   * among the company's rows of that one value, so a maximum many reports share (readings of
   * one constant temperature) is not read again from every row of a day when one of them moves.
   */
  holds: (t: string, value: string) => string;
  /** The report_listing columns an update of which may move a row's share. */
  watched: readonly string[];
}

/** The listing row `l` has the kept row `t`'s values of the split columns. */
const sameSplit = (split: readonly string[], t: string) => split.map((c) => `l.${c} = ${t}.${c}`).join(' AND ');
/** The created time text of the start of hour `h` (hours since 1970). */
const hourText = (h: string) => `strftime('%Y-%m-%dT%H:%M:%S', (${h}) * 3600, 'unixepoch')`;

const timeTable = (table: string, split: readonly string[]): KeptTable => ({
  table,
  key: [['ck', 'INTEGER NOT NULL'], ['field', 'INTEGER NOT NULL'], ['at', 'INTEGER NOT NULL'], ...split.map((c) => [c, 'INTEGER NOT NULL'] as const)],
  keysOf: (p, from = '') => {
    const columns = split.map((c) => `${p}.${c} AS ${c}`).join(', ');
    return `SELECT ${p}.ck AS ck, 0 AS field, ${createdAt(p)} AS at, ${columns} ${from} UNION ALL SELECT ${p}.ck AS ck, 1 AS field, ${startAt(p)} AS at, ${columns} ${from}`;
  },
  // unlikely(): said plainly, SQLite reads the company's whole range instead of the start time index's run of none.
  maxOf: (t) => {
    const same = sameSplit(split, t);
    return `CASE WHEN ${t}.at = ${UNKEYED} THEN NULL
      WHEN ${t}.field = 0 THEN (SELECT max(l.calc_mean_kinetic_temperature) FROM report_listing l
        WHERE l.ck = ${t}.ck AND l.created >= ${hourText(`${t}.at`)} AND l.created < ${hourText(rowEnd(`${t}.at`))} AND ${same} AND ${createdAt('l')} = ${t}.at)
      WHEN ${t}.at = ${NONE} THEN (SELECT max(+l.calc_mean_kinetic_temperature) FROM report_listing l
        WHERE l.ck = ${t}.ck AND unlikely(l.calc_start_time IS NULL) AND ${same})
      ELSE (SELECT max(l.calc_mean_kinetic_temperature) FROM report_listing l
        WHERE l.ck = ${t}.ck AND l.calc_start_time >= ${t}.at * 3600 AND l.calc_start_time < (${rowEnd(`${t}.at`)}) * 3600 AND ${same} AND ${startAt('l')} = ${t}.at) END`;
  },
  holds: (t, value) => {
    const same = sameSplit(split, t);
    const holding = `l.ck = ${t}.ck AND l.calc_mean_kinetic_temperature = ${value} AND ${same}`;
    return `CASE WHEN ${t}.at = ${UNKEYED} THEN 0
      WHEN ${t}.field = 0 THEN EXISTS (SELECT 1 FROM report_listing l INDEXED BY listing_mean_kinetic_temperature
        WHERE ${holding} AND +l.created >= ${hourText(`${t}.at`)} AND +l.created < ${hourText(rowEnd(`${t}.at`))} AND ${createdAt('l')} = ${t}.at)
      WHEN ${t}.at = ${NONE} THEN EXISTS (SELECT 1 FROM report_listing l INDEXED BY listing_mean_kinetic_temperature WHERE ${holding} AND +l.calc_start_time IS NULL)
      ELSE EXISTS (SELECT 1 FROM report_listing l INDEXED BY listing_mean_kinetic_temperature
        WHERE ${holding} AND +l.calc_start_time >= ${t}.at * 3600 AND +l.calc_start_time < (${rowEnd(`${t}.at`)}) * 3600 AND ${startAt('l')} = ${t}.at) END`;
  },
  watched: ['created', 'calc_start_time', ...split, 'alert_level', 'calc_violations_all', 'calc_violation_duration_all', 'calc_degree_hour', 'calc_mean_kinetic_temperature'],
});

/** The listing row `l` counts under the kept split row `t`: its fixed keys and its distributions' ranges. */
const inSplitRow = (t: string) => `${FIXED_SPLIT.map((c) => `l.${c} = ${t}.${c}`).join(' AND ')}
        AND ${Object.entries(binOf('l'))
          .map(([c, sql]) => `(${sql}) = ${t}.${c}`)
          .join(' AND ')}`;

const splitTable: KeptTable = {
  table: 'group_figures_split',
  key: [
    ['ck', 'INTEGER NOT NULL'],
    ...SPLIT,
    ...Object.keys(BIN_COLUMNS).map((c) => [c, 'INTEGER NOT NULL'] as const),
  ],
  keysOf: (p, from = '') => {
    const bins = binOf(p);
    return `SELECT ${p}.ck AS ck, ${FIXED_SPLIT.map((c) => `${p}.${c} AS ${c}`).join(', ')}, ${Object.entries(bins)
      .map(([c, sql]) => `${sql} AS ${c}`)
      .join(', ')} ${from}`;
  },
  maxOf: (t, below) => `(SELECT l.calc_mean_kinetic_temperature FROM report_listing l
      WHERE l.ck = ${t}.ck AND l.calc_mean_kinetic_temperature <= ${below}
        AND ${inSplitRow(t)}
      ORDER BY l.calc_mean_kinetic_temperature DESC LIMIT 1)`,
  holds: (t, value) => `EXISTS (SELECT 1 FROM report_listing l INDEXED BY listing_mean_kinetic_temperature
      WHERE l.ck = ${t}.ck AND l.calc_mean_kinetic_temperature = ${value}
        AND ${inSplitRow(t)})`,
  watched: [...FIXED_SPLIT, 'calc_violations_all', 'calc_violation_duration_all', 'calc_degree_hour', 'calc_mean_kinetic_temperature'],
};

/** One trigger that keeps a kept table: its event, its condition and its statements. */
interface KeptTrigger {
  name: string;
  /** `AFTER INSERT ON report_listing` and the like. */
  event: string;
  when?: string;
  /** This migration writes the condition of the listing's update trigger on a line of its own. */
  whenOnOwnLine?: boolean;
  statements: string[];
}

/** The statements that move a kept table's sums by one listing row, alias `p`, with its decision `d`. */
function shareStatements(t: KeptTable) {
  const keyColumns = t.key.map(([c]) => c);
  const tuple = `(${keyColumns.join(', ')})`;
  const keysIn = (p: string) => `${tuple} IN (SELECT * FROM (${t.keysOf(p)}))`;
  const mkt = (p: string) => `${p}.calc_mean_kinetic_temperature`;
  const timeRow = t.table.startsWith('group_figures_time');
  /** The MKT max as a row with `p` in it holds it. */
  const raised = (p: string) =>
    `mkt_max = CASE WHEN ${timeRow ? `at = ${UNKEYED} OR ` : ''}${mkt(p)} IS NULL THEN mkt_max WHEN mkt_max IS NULL OR ${mkt(p)} > mkt_max THEN ${mkt(p)} ELSE mkt_max END`;
  return {
    /** One more listing row `p` (decision `d`) in each of its kept rows. */
    add: (p: string, d: string) => [
      `UPDATE ${t.table} SET ${FIGURES.map(([c, , share]) => `${c} = ${c} + ${share(p, d)}`).join(', ')}, ${raised(p)}
      WHERE ${keysIn(p)}`,
      `INSERT INTO ${t.table} (${keyColumns.join(', ')}, ${FIGURE_COLUMNS.join(', ')})
      SELECT kr.*, ${FIGURES.map(([, , share]) => share(p, d)).join(', ')}, ${timeRow ? `CASE WHEN kr.at = ${UNKEYED} THEN NULL ELSE ${mkt(p)} END` : mkt(p)}
        FROM (SELECT * FROM (${t.keysOf(p)})) kr
       WHERE NOT EXISTS (SELECT 1 FROM ${t.table} c WHERE ${keyColumns.map((c) => `c.${c} = kr.${c}`).join(' AND ')})`,
    ],
    /** One fewer listing row `p` (decision `d`), which is no longer among the listing rows as they were. */
    remove: (p: string, d: string) => [
      `UPDATE ${t.table} SET ${FIGURES.map(([c, , share]) => `${c} = ${c} - ${share(p, d)}`).join(', ')},
        mkt_max = CASE WHEN ${mkt(p)} IS NOT NULL AND mkt_max = ${mkt(p)} AND NOT ${t.holds(t.table, mkt(p))} THEN ${t.maxOf(t.table, mkt(p))} ELSE mkt_max END
      WHERE ${keysIn(p)}`,
      `DELETE FROM ${t.table} WHERE n <= 0 AND ${keysIn(p)}`,
    ],
    /** A decision moved: the counts of the listing row of the entry's company and report. */
    decided: (from: string, to: string) => {
      const row = `(SELECT * FROM report_listing l WHERE l.ck = (SELECT k.ck FROM company_keys k WHERE k.company_id = new.company_id)
        AND l.rk = (SELECT r.rk FROM report_keys r WHERE r.report_id = new.label_report_id))`;
      return `UPDATE ${t.table} SET ${DECISIONS.map(([c, decision]) => `${c} = ${c} + coalesce(${to} = '${decision}', 0) - coalesce(${from} = '${decision}', 0)`).join(', ')}
      WHERE ${tuple} IN (SELECT * FROM (${t.keysOf('p', `FROM ${row} p`)}))`;
    },
  };
}

/** The triggers that keep a kept table from the listing rows and the decisions. */
function listingTriggers(t: KeptTable): KeptTrigger[] {
  const { add, remove, decided } = shareStatements(t);
  const prefix = `listing_${t.table}`;
  return [
    { name: `${prefix}_insert`, event: 'AFTER INSERT ON report_listing', statements: add('new', decisionOf('new')) },
    { name: `${prefix}_delete`, event: 'AFTER DELETE ON report_listing', statements: remove('old', decisionOf('old')) },
    {
      name: `${prefix}_update`,
      event: `AFTER UPDATE OF ${t.watched.join(', ')} ON report_listing`,
      when: t.watched.map((c) => `old.${c} IS NOT new.${c}`).join(' OR '),
      whenOnOwnLine: true,
      statements: [...remove('old', decisionOf('old')), ...add('new', decisionOf('new'))],
    },
    { name: `${prefix}_decision_insert`, event: 'AFTER INSERT ON review_current', when: 'new.decision IS NOT NULL', statements: [decided('NULL', 'new.decision')] },
    {
      name: `${prefix}_decision_update`,
      event: 'AFTER UPDATE OF decision ON review_current',
      when: 'old.decision IS NOT new.decision',
      statements: [decided('old.decision', 'new.decision')],
    },
  ];
}

/** A trigger's CREATE statement. */
function createTrigger(t: KeptTrigger): string {
  const when = t.when === undefined ? '' : `${t.whenOnOwnLine ? '\n' : ' '}WHEN ${t.when}`;
  return `CREATE TRIGGER ${t.name} ${t.event}${when} BEGIN\n  ${t.statements.join(';\n  ')};\nEND;`;
}

/**
 * The table, its triggers and its recount; `from`: a kept table of a finer split its sums are
 * summed from. The listing's triggers skip a report the write path holds (see group_figures_moving).
 */
function kept(t: KeptTable, from?: string): { create: string; recount: string; triggers: KeptTrigger[] } {
  const keyColumns = t.key.map(([c]) => c);
  const timeRow = t.table.startsWith('group_figures_time');
  const triggers = from ? summedFrom(t.table, from, keyColumns) : listingTriggers(t).map(gated);
  const recount = from
    ? `DELETE FROM ${t.table};
INSERT INTO ${t.table} (${keyColumns.join(', ')}, ${FIGURE_COLUMNS.join(', ')})
  SELECT ${keyColumns.join(', ')}, ${FIGURES.map(([c]) => `sum(${c})`).join(', ')}, max(mkt_max) FROM ${from} GROUP BY ${keyColumns.join(', ')};`
    : `DELETE FROM ${t.table};
INSERT INTO ${t.table} (${keyColumns.join(', ')}, ${FIGURE_COLUMNS.join(', ')})
  SELECT ${keyColumns.map((c) => `k.${c}`).join(', ')}, ${FIGURES.map(([c]) => SUMMED[c]('p', 'k.decision_')).join(', ')},
         ${timeRow ? `CASE WHEN k.at = ${UNKEYED} THEN NULL ELSE max(p.calc_mean_kinetic_temperature) END` : 'max(p.calc_mean_kinetic_temperature)'}
    FROM (${t.keysOf('x', `, x.rk AS rk_, ${decisionOf('x')} AS decision_ FROM report_listing x`)}) k
    JOIN report_listing p ON p.ck = k.ck AND p.rk = k.rk_
   GROUP BY ${keyColumns.map((c) => `k.${c}`).join(', ')};`;
  const create = `CREATE TABLE ${t.table} (
  ${t.key.map(([c, type]) => `${c} ${type}`).join(',\n  ')},
  ${FIGURES.map(([c, type]) => `${c} ${type} NOT NULL`).join(',\n  ')},
  mkt_max ANY,
  PRIMARY KEY (${keyColumns.join(', ')})
) STRICT, WITHOUT ROWID`;
  return { create, recount, triggers };
}

/**
 * The triggers of a table whose rows sum those of a finer split (`from`): each change of a finer
 * row moves its sum by the difference, by key, without reading the listing rows again; the MKT's
 * maximum is read again from the few finer rows of the sum when the one holding it goes down.
 */
function summedFrom(table: string, from: string, key: readonly string[]): KeptTrigger[] {
  const same = (row: string) => key.map((c) => `${c} = ${row}.${c}`).join(' AND ');
  const maxOf = (row: string) => `(SELECT max(g.mkt_max) FROM ${from} g WHERE ${key.map((c) => `g.${c} = ${row}.${c}`).join(' AND ')})`;
  const prefix = `listing_${table}`;
  return [
    {
      name: `${prefix}_sum_insert`,
      event: `AFTER INSERT ON ${from}`,
      statements: [
        `UPDATE ${table} SET ${FIGURES.map(([c]) => `${c} = ${c} + new.${c}`).join(', ')},
        mkt_max = CASE WHEN new.mkt_max IS NULL THEN mkt_max WHEN mkt_max IS NULL OR new.mkt_max > mkt_max THEN new.mkt_max ELSE mkt_max END
      WHERE ${same('new')}`,
        `INSERT INTO ${table} (${key.join(', ')}, ${FIGURE_COLUMNS.join(', ')})
      SELECT ${key.map((c) => `new.${c}`).join(', ')}, ${FIGURE_COLUMNS.map((c) => `new.${c}`).join(', ')}
      WHERE NOT EXISTS (SELECT 1 FROM ${table} c WHERE ${key.map((c) => `c.${c} = new.${c}`).join(' AND ')})`,
      ],
    },
    {
      name: `${prefix}_sum_update`,
      event: `AFTER UPDATE ON ${from}`,
      statements: [
        `UPDATE ${table} SET ${FIGURES.map(([c]) => `${c} = ${c} + new.${c} - old.${c}`).join(', ')},
        mkt_max = CASE WHEN new.mkt_max IS NOT NULL AND (mkt_max IS NULL OR new.mkt_max > mkt_max) THEN new.mkt_max
          WHEN old.mkt_max IS NOT NULL AND mkt_max = old.mkt_max AND new.mkt_max IS NOT old.mkt_max THEN ${maxOf('new')} ELSE mkt_max END
      WHERE ${same('new')}`,
      ],
    },
    {
      name: `${prefix}_sum_delete`,
      event: `AFTER DELETE ON ${from}`,
      statements: [
        `UPDATE ${table} SET ${FIGURES.map(([c]) => `${c} = ${c} - old.${c}`).join(', ')},
        mkt_max = CASE WHEN old.mkt_max IS NOT NULL AND mkt_max = old.mkt_max THEN ${maxOf('old')} ELSE mkt_max END
      WHERE ${same('old')}`,
        `DELETE FROM ${table} WHERE n <= 0 AND ${same('old')}`,
      ],
    },
  ];
}

/** The two tables the listing's triggers keep; group_figures_time_totals is summed from the first. */
const LISTING_KEPT: readonly KeptTable[] = [timeTable('group_figures_time', TIME_SPLIT), splitTable];

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

const time = kept(LISTING_KEPT[0]);
const timeTotals = kept(timeTable('group_figures_time_totals', TIME_TOTALS_SPLIT), 'group_figures_time');
const split = kept(LISTING_KEPT[1]);


/** The kept figures as they follow from the listing rows and decisions: what a bulk rebuild writes. */
export const GROUP_FIGURES_RECOUNT = `${time.recount}\n${timeTotals.recount}\n${split.recount}`;

/** The kept tables, for checks that compare them with a recount. */
export const GROUP_FIGURES_TABLES = ['group_figures_time', 'group_figures_time_totals', 'group_figures_split'] as const;

/**
 * The UTC hours a kept row of group_figures_time starting at hour `at` spans, as the triggers cut
 * them: one on the first and last UTC day of a month, 24 on the other days.
 */
export function keptRowHours(at: number): number {
  const day = Math.floor(at / 24);
  const date = (d: number) => new Date(d * 86_400_000).getUTCDate();
  const edge = date(day) === 1 || date(day + 1) === 1;
  return edge || at % 24 !== 0 ? 1 : 24;
}

const MOVING_TABLE = `CREATE TABLE group_figures_moving (
  rk       INTEGER NOT NULL,
  ck       INTEGER NOT NULL,           -- 0 in the row that holds the report
  part     TEXT NOT NULL CHECK (part IN ('held', 'was', 'is')),
  ${MOVING_COLUMNS.map((c) => `${c} ANY`).join(',\n  ')},
  decision ANY,
  PRIMARY KEY (rk, ck, part)
) STRICT, WITHOUT ROWID`;

export const GROUP_FIGURES: KeptTableDeclaration = {
  name: 'group figures',
  tables: [table(time.create), table(timeTotals.create), table(split.create), table(MOVING_TABLE)],
  madeFrom:
    'report_listing (the figures of each listing row) and review_current (the viewing company\'s current decision); group_figures_time_totals sums group_figures_time; group_figures_moving holds, during one write, the listing rows of a report as they were',
  key:
    'group_figures_time (ck, field, at, owner_ck, has_flag, is_archived): a UTC day, or hour at a month\'s edge, of the created or start time; group_figures_time_totals (ck, field, at, is_archived); group_figures_split (ck, the seven browser columns, bin_seconds, bin_degree_hours, bin_mkt); group_figures_moving (rk, ck, part)',
  reads: [
    {
      read: 'a monthly group-by in Berlin with every figure (unfiltered · archived hidden)',
      figure: '24.5 · 29.9 ms at 100 000 reports against 467 · 432 ms reading the matches',
    },
    { read: 'a group-by by mode · by MKT range · weekly in UTC', figure: '4.6 · 4.6 · 35 ms at 100 000 against 468 · 319 · 546 ms' },
    {
      read: 'the Insights screen\'s request, unfiltered',
      figure: '0.04–0.1 s at 100 000 against 1–3 s reading its 90 000 matches',
    },
  ],
  writes:
    'A listing row that comes, goes or moves a watched column moves its share of each kept row it counts under, and a decision moves the decision counts; the archive-only sums move by the difference of the finer row. A report\'s own write holds it in group_figures_moving first (HOLD_FIGURES): the listing triggers skip it, and releasing it (RELEASE_FIGURES) takes its shares out as they were and puts them in as they are, once per write.',
  triggers: triggers([...time.triggers, ...timeTotals.triggers, ...split.triggers, ...moves].map(createTrigger)),
  statements: { hold: HOLD_FIGURES, release: RELEASE_FIGURES },
  indexes: [],
  bulkLoad: 'rebuilt',
  rebuild: GROUP_FIGURES_RECOUNT,
};
