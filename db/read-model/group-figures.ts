/** The read model: declarations moved out of the migrations that first wrote them. */
import { SPLIT } from './listing-counts';

// Moved from migration 022.

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
export const FIXED_SPLIT: readonly string[] = SPLIT.map(([c]) => c);

/** The distributions' ranges as the list's filters cut them (contract/insights-tables.ts), by report_listing column. */
export const BIN_COLUMNS = {
  bin_seconds: 'calc_violation_duration_all',
  bin_degree_hours: 'calc_degree_hour',
  bin_mkt: 'calc_mean_kinetic_temperature',
} as const;

export const binOf = (p: string) => ({
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
export const floorDiv = (a: string, b: number) => `(((${a}) - ((((${a}) % ${b}) + ${b}) % ${b})) / ${b})`;
/** A number rounded down to an integer. */
export const floorInt = (x: string) => `(CAST(${x} AS INTEGER) - ((${x}) < CAST(${x} AS INTEGER)))`;
/** The UTC day `d` (days since 1970) is the first or the last of its month. */
export const edgeDay = (d: string) => `(strftime('%d', (${d}) * 86400, 'unixepoch') = '01' OR strftime('%d', (${d}) * 86400 + 86400, 'unixepoch') = '01')`;
/** The row an hour `h` (hours since 1970) is kept in: itself on an edge day, its day's midnight otherwise. */
export const rowOfHour = (h: string) => `(SELECT CASE WHEN ${edgeDay('d')} THEN h ELSE d * 24 END FROM (SELECT h, ${floorDiv('h', 24)} AS d FROM (SELECT ${h} AS h)))`;
/** The hour after the last one the row starting at `at` spans. */
export const rowEnd = (at: string) => `CASE WHEN ((((${at}) % 24) + 24) % 24) <> 0 OR ${edgeDay(floorDiv(at, 24))} THEN (${at}) + 1 ELSE (${at}) + 24 END`;
/** Seconds since 1970 within the years both parses agree on. */
export const inRange = (s: string) => `(${s}) >= -2208988800 AND (${s}) < 253402300800`;

/**
 * The row of a created time: written as `toISOString` writes it (the fraction optional), read
 * back to the same date and time, so JavaScript's parse, which the one-pass read uses, reads the
 * same instant.
 */
export const createdAt = (p: string) => `(SELECT CASE WHEN (c GLOB '[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]T[0-9][0-9]:[0-9][0-9]:[0-9][0-9]Z'
      OR (c GLOB '[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]T[0-9][0-9]:[0-9][0-9]:[0-9][0-9].[0-9]*Z'
          AND length(c) <= 30 AND substr(c, 21, length(c) - 21) NOT GLOB '*[^0-9]*'))
    AND strftime('%Y-%m-%dT%H:%M:%S', s, 'unixepoch') = substr(c, 1, 19) AND ${inRange('s')}
  THEN ${rowOfHour(floorDiv('s', 3600))} ELSE ${UNKEYED} END FROM (SELECT ${p}.created AS c, unixepoch(${p}.created) AS s))`;

/** The row of a start time: seconds, integer or not; none: NONE. */
export const startAt = (p: string) => `(SELECT CASE WHEN v IS NULL THEN ${NONE}
  WHEN typeof(v) IN ('integer', 'real') AND ${inRange('v')}
  THEN ${rowOfHour(floorDiv(floorInt('v'), 3600))} ELSE ${UNKEYED} END FROM (SELECT ${p}.calc_start_time AS v))`;

/** The current decision of the listing row's company on its report (review_current, by key). */
export const decisionOf = (p: string) =>
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
export const FIGURES: readonly (readonly [string, string, (p: string, d: string) => string])[] = [
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
export const SUMMED: Record<string, (p: string, d: string) => string> = {
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
export const FIGURE_COLUMNS: readonly string[] = [...FIGURES.map(([c]) => c), 'mkt_max'];

export interface KeptTable {
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
export const sameSplit = (split: readonly string[], t: string) => split.map((c) => `l.${c} = ${t}.${c}`).join(' AND ');
/** The created time text of the start of hour `h` (hours since 1970). */
export const hourText = (h: string) => `strftime('%Y-%m-%dT%H:%M:%S', (${h}) * 3600, 'unixepoch')`;

export const timeTable = (table: string, split: readonly string[]): KeptTable => ({
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
export const inSplitRow = (t: string) => `${FIXED_SPLIT.map((c) => `l.${c} = ${t}.${c}`).join(' AND ')}
        AND ${Object.entries(binOf('l'))
          .map(([c, sql]) => `(${sql}) = ${t}.${c}`)
          .join(' AND ')}`;

export const splitTable: KeptTable = {
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
export interface KeptTrigger {
  name: string;
  /** `AFTER INSERT ON report_listing` and the like. */
  event: string;
  when?: string;
  /** This migration writes the condition of the listing's update trigger on a line of its own. */
  whenOnOwnLine?: boolean;
  statements: string[];
}

/** The statements that move a kept table's sums by one listing row, alias `p`, with its decision `d`. */
export function shareStatements(t: KeptTable) {
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
export function listingTriggers(t: KeptTable): KeptTrigger[] {
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
export function createTrigger(t: KeptTrigger): string {
  const when = t.when === undefined ? '' : `${t.whenOnOwnLine ? '\n' : ' '}WHEN ${t.when}`;
  return `CREATE TRIGGER ${t.name} ${t.event}${when} BEGIN\n  ${t.statements.join(';\n  ')};\nEND;`;
}

/** The table, its first sums and the triggers that keep it; `from`: a kept table of a finer split its sums are first summed from. */
export function kept(t: KeptTable, from?: string): { sql: string; recount: string; statements: string[] } {
  const keyColumns = t.key.map(([c]) => c);
  const timeRow = t.table.startsWith('group_figures_time');
  const triggers = from ? summedFrom(t.table, from, keyColumns) : listingTriggers(t);
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
  const sql = `
CREATE TABLE ${t.table} (
  ${t.key.map(([c, type]) => `${c} ${type}`).join(',\n  ')},
  ${FIGURES.map(([c, type]) => `${c} ${type} NOT NULL`).join(',\n  ')},
  mkt_max ANY,
  PRIMARY KEY (${keyColumns.join(', ')})
) STRICT, WITHOUT ROWID;

${recount}

${triggers.map(createTrigger).join('\n\n')}
`;
  return { sql, recount, statements: triggers.flatMap((trigger) => trigger.statements) };
}

/**
 * The triggers of a table whose rows sum those of a finer split (`from`): each change of a finer
 * row moves its sum by the difference, by key, without reading the listing rows again; the MKT's
 * maximum is read again from the few finer rows of the sum when the one holding it goes down.
 */
export function summedFrom(table: string, from: string, key: readonly string[]): KeptTrigger[] {
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
export const LISTING_KEPT: readonly KeptTable[] = [timeTable('group_figures_time', TIME_SPLIT), splitTable];

export const time = kept(LISTING_KEPT[0]);
export const timeTotals = kept(timeTable('group_figures_time_totals', TIME_TOTALS_SPLIT), 'group_figures_time');
export const split = kept(LISTING_KEPT[1]);


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
