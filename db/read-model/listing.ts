/** The read model: declarations moved out of the migrations that first wrote them. */

// Moved from migration 006.

/** [listing column, declared type, value from the label_reports row aliased by the prefix]. */
export const REPORT_SCALARS: readonly (readonly [string, string, (p: string) => string])[] = [
  ['created', 'TEXT NOT NULL', (p) => `${p}.created`],
  ['updated', 'TEXT NOT NULL', (p) => `${p}.updated`],
  ['sub_company_id', 'ANY', (p) => `json_extract(${p}.sub_company, '$.id')`],
  ['label_uid', 'TEXT NOT NULL', (p) => `${p}.label_uid`],
  ['label_sequence_code', 'TEXT NOT NULL', (p) => `${p}.label_sequence_code`],
  ['label_type', 'TEXT NOT NULL', (p) => `${p}.label_type`],
  ['label_name', 'TEXT NOT NULL', (p) => `${p}.label_name`],
  ['firmware_version', 'TEXT NOT NULL', (p) => `${p}.firmware_version`],
  ['firmware_api_version', 'TEXT NOT NULL', (p) => `${p}.firmware_api_version`],
  ['mode', 'TEXT NOT NULL', (p) => `${p}.mode`],
  ['type', 'TEXT NOT NULL', (p) => `${p}.type`],
  ['status', 'TEXT NOT NULL', (p) => `${p}.status`],
  ['label_reference', 'TEXT NOT NULL', (p) => `${p}.label_reference`],
  ['number_of_taps', 'INTEGER NOT NULL', (p) => `${p}.number_of_taps`],
  ['data_is_incomplete', 'INTEGER NOT NULL', (p) => `${p}.data_is_incomplete`],
  ['interval', 'INTEGER NOT NULL', (p) => `${p}.interval`],
  ['config_time', 'INTEGER NOT NULL', (p) => `${p}.config_time`],
  ['start_delay', 'INTEGER NOT NULL', (p) => `${p}.start_delay`],
  ['running_time', 'INTEGER NOT NULL', (p) => `${p}.running_time`],
  ['min_temperature', 'REAL NOT NULL', (p) => `${p}.min_temperature`],
  ['max_temperature', 'REAL NOT NULL', (p) => `${p}.max_temperature`],
  ['min_humidity', 'REAL', (p) => `${p}.min_humidity`],
  ['max_humidity', 'REAL', (p) => `${p}.max_humidity`],
  ['alert_level', 'INTEGER NOT NULL', (p) => `${p}.alert_level`],
  ['alert_timestamp', 'INTEGER NOT NULL', (p) => `${p}.alert_timestamp`],
  ...(
    [
      ['calc_datapoints_read', 'numberOfDatapointsRead'],
      ['calc_datapoints_available', 'numberOfDatapointsAvailable'],
      ['calc_measurements_occurred', 'numberOfMeasurementsOccurred'],
      ['calc_start_time', 'startTime'],
      ['calc_current_time', 'currentTime'],
      ['calc_elapsed_time', 'elapsedTime'],
      ['calc_violations_temperature', 'numberOfViolations.temperature'],
      ['calc_violations_humidity', 'numberOfViolations.humidity'],
      ['calc_violations_all', 'numberOfViolations.all'],
      ['calc_violation_duration_temperature', 'durationOfViolations.temperature'],
      ['calc_violation_duration_humidity', 'durationOfViolations.humidity'],
      ['calc_violation_duration_all', 'durationOfViolations.all'],
      ['calc_attained_min_temperature', 'attainedValues.minTemperature'],
      ['calc_attained_max_temperature', 'attainedValues.maxTemperature'],
      ['calc_average_temperature', 'analysedValues.temperature.average'],
      ['calc_degree_hour', 'analysedValues.temperature.degreeHour'],
      ['calc_mean_kinetic_temperature', 'analysedValues.temperature.meanKineticTemperature'],
    ] as const
  ).map(([column, path]) => [column, 'ANY', (p: string) => `json_extract(${p}.calculated, '$.${path}')`] as const),
];

export const LISTING_COLUMNS = ['rk', 'ck', 'id', 'owner_ck', 'has_flag', 'is_archived', ...REPORT_SCALARS.map(([c]) => c)].join(', ');

/**
 * Listing rows for the access entries that `accessWhere` picks (alias a), from their report r.
 * A report or an entry that is not there yet gives no row: the other one's trigger makes it.
 */
export function insertListing(accessWhere: string): string {
  return `INSERT INTO report_listing (${LISTING_COLUMNS})
    SELECT rk.rk, ck.ck, r.id, oc.ck, COALESCE(s.has_flag, 0), COALESCE(s.is_archived, 0),
           ${REPORT_SCALARS.map(([, , value]) => value('r')).join(', ')}
    FROM access a
    JOIN label_reports r ON r.id = a.label_report_id
    JOIN report_keys rk ON rk.report_id = r.id
    JOIN company_keys ck ON ck.company_id = a.company_id
    JOIN company_keys oc ON oc.company_id = r.owner_company_id
    LEFT JOIN company_report_state s ON s.label_report_id = a.label_report_id AND s.company_id = a.company_id
    WHERE ${accessWhere}`;
}

/** The trigram rows of the reports `where` picks (alias r). */
export function insertText(where: string): string {
  return `INSERT INTO report_text (rowid, label_reference, label_uid, label_sequence_code, label_name)
    SELECT rk.rk, r.label_reference, r.label_uid, r.label_sequence_code, r.label_name
    FROM label_reports r JOIN report_keys rk ON rk.report_id = r.id WHERE ${where}`;
}

/**
 * The typed elements of the custom field values `where` picks (alias v): numbers in `num`, texts
 * in `text`. Other JSON (true, false, null, nested arrays or objects) never matches a condition,
 * so it has no element.
 */
export function insertElements(where: string): string {
  return `INSERT INTO custom_field_elements (rk, field, elem, text, num)
    SELECT rk.rk, v.custom_field_id, e.id,
           CASE WHEN e.type = 'text' THEN e.value END,
           CASE WHEN e.type IN ('integer', 'real') THEN e.value END
    FROM custom_field_values v
    JOIN report_keys rk ON rk.report_id = v.label_report_id,
    json_each(v.value) e
    WHERE e.type IN ('text', 'integer', 'real') AND ${where}`;
}

/**
 * Adds a key for the id unless it has one. Not INSERT OR IGNORE: inside a trigger, the conflict
 * clause of the statement that fired it (an upsert's) would take the place of IGNORE.
 */
export const ensureKey = (table: string, column: string, id: string) =>
  `INSERT INTO ${table} (${column}) SELECT ${id} WHERE NOT EXISTS (SELECT 1 FROM ${table} WHERE ${column} = ${id})`;
export const ensureReportKey = (id: string) => ensureKey('report_keys', 'report_id', id);
export const ensureCompanyKey = (id: string) => ensureKey('company_keys', 'company_id', id);

export const rkOf = (id: string) => `(SELECT rk FROM report_keys WHERE report_id = ${id})`;
export const ckOf = (id: string) => `(SELECT ck FROM company_keys WHERE company_id = ${id})`;

/** Index columns after the company: each UI path reads them in its order, ties by id. */
export const BY_CREATED = 'created DESC, id';


// Moved from migration 017.

/** The label_reports column a listing value is read from (`created`, `sub_company`, `calculated`, …). */
export function sourceOf(value: (p: string) => string): string {
  const match = /\bnew\.(\w+)/.exec(value('new'));
  if (!match) throw new Error(`no report column in ${value('new')}`);
  return match[1];
}

export const perColumn = REPORT_SCALARS.map(
  ([column, , value]) => `
CREATE TRIGGER listing_report_update_${column}
AFTER UPDATE OF ${sourceOf(value)} ON label_reports
WHEN ${value('old')} IS NOT ${value('new')} BEGIN
  UPDATE report_listing SET ${column} = ${value('new')} WHERE rk = ${rkOf('new.id')};
END;`,
).join('\n');
