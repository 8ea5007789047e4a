/**
 * The listing: integer keys for reports and companies; `report_listing`, one narrow row per
 * (company, report) the company can see, with every allow-listed scalar of the list query and
 * that company's flag and archive state; `report_text`, a trigram index of the searchable texts;
 * `custom_field_elements`, each custom field value as typed elements. `custom_field_values`,
 * `access` and `company_report_state` stay the source of truth: the triggers below derive
 * everything here from them in the transaction that writes them, whatever the order of the
 * writes. A change of a report rewrites only the listing columns whose values moved: each column
 * has a trigger of its own, fired only by an update of the report column it comes from and only
 * when its value moves, so an index none of whose columns moved is not touched.
 */
import { table, triggers, type KeptTableDeclaration } from './declaration';
import { LISTING_INDEXES } from './listing-indexes';

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

export const LISTING_COLUMNS = ['rk', 'ck', 'id', 'owner_ck', 'has_flag', 'is_archived', ...REPORT_SCALARS.map(([c]) => c), 'shipment_ref'].join(', ');

/**
 * A custom field value `v` as a shipment groups by it: a text as written, a whole number in its
 * JSON form; anything else (a fraction, true, false, a list) groups nothing, as an empty
 * reference does (docs/shipments.md#grouping-by-a-custom-field).
 */
export const groupingValueOf = (v: string) =>
  `coalesce(CASE json_type(${v}) WHEN 'text' THEN ${v} ->> '$' WHEN 'integer' THEN ${v} END, '')`;

/**
 * What the company of key `ck` groups report `reportId` into shipments by (`shipment_ref`): the
 * label reference `labelReference`, or the value of the custom field the company chose in its
 * settings (shipment_grouping).
 */
export function shipmentRefOf(ck: string, reportId: string, labelReference: string): string {
  return `coalesce((SELECT CASE WHEN g.field IS NULL THEN ${labelReference} ELSE coalesce((SELECT ${groupingValueOf('v.value')} FROM custom_field_values v WHERE v.label_report_id = ${reportId} AND v.custom_field_id = g.field), '') END
      FROM shipment_grouping g WHERE g.ck = ${ck}), ${labelReference})`;
}

/**
 * Listing rows for the access entries that `accessWhere` picks (alias a; every entry without),
 * from their report r.
 * A report or an entry that is not there yet gives no row: the other one's trigger makes it.
 */
export function insertListing(accessWhere?: string): string {
  return `INSERT INTO report_listing (${LISTING_COLUMNS})
    SELECT rk.rk, ck.ck, r.id, oc.ck, COALESCE(s.has_flag, 0), COALESCE(s.is_archived, 0),
           ${REPORT_SCALARS.map(([, , value]) => value('r')).join(', ')}, ${shipmentRefOf('ck.ck', 'r.id', 'r.label_reference')}
    FROM access a
    JOIN label_reports r ON r.id = a.label_report_id
    JOIN report_keys rk ON rk.report_id = r.id
    JOIN company_keys ck ON ck.company_id = a.company_id
    JOIN company_keys oc ON oc.company_id = r.owner_company_id
    LEFT JOIN company_report_state s ON s.label_report_id = a.label_report_id AND s.company_id = a.company_id${
      accessWhere === undefined ? '' : `
    WHERE ${accessWhere}`
    }`;
}

/** The trigram rows of the reports `where` picks (alias r; every report without). */
export function insertText(where?: string): string {
  return `INSERT INTO report_text (rowid, label_reference, label_uid, label_sequence_code, label_name)
    SELECT rk.rk, r.label_reference, r.label_uid, r.label_sequence_code, r.label_name
    FROM label_reports r JOIN report_keys rk ON rk.report_id = r.id${where === undefined ? '' : ` WHERE ${where}`}`;
}

/**
 * The typed elements of the custom field values `where` picks (alias v): numbers in `num`, texts
 * in `text`. Other JSON (true, false, null, nested arrays or objects) never matches a condition,
 * so it has no element.
 */
export function insertElements(where?: string): string {
  return `INSERT INTO custom_field_elements (rk, field, elem, text, num)
    SELECT rk.rk, v.custom_field_id, e.id,
           CASE WHEN e.type = 'text' THEN e.value END,
           CASE WHEN e.type IN ('integer', 'real') THEN e.value END
    FROM custom_field_values v
    JOIN report_keys rk ON rk.report_id = v.label_report_id,
    json_each(v.value) e
    WHERE e.type IN ('text', 'integer', 'real')${where === undefined ? '' : ` AND ${where}`}`;
}

/**
 * Adds a key for the id unless it has one. Not INSERT OR IGNORE: inside a trigger, the conflict
 * clause of the statement that fired it (an upsert's) would take the place of IGNORE.
 */
const ensureKey = (keys: string, column: string, id: string) =>
  `INSERT INTO ${keys} (${column}) SELECT ${id} WHERE NOT EXISTS (SELECT 1 FROM ${keys} WHERE ${column} = ${id})`;
const ensureReportKey = (id: string) => ensureKey('report_keys', 'report_id', id);
const ensureCompanyKey = (id: string) => ensureKey('company_keys', 'company_id', id);

const rkOf = (id: string) => `(SELECT rk FROM report_keys WHERE report_id = ${id})`;
const ckOf = (id: string) => `(SELECT ck FROM company_keys WHERE company_id = ${id})`;

/** The label_reports column a listing value is read from (`created`, `sub_company`, `calculated`, …). */
export function sourceOf(value: (p: string) => string): string {
  const match = /\bnew\.(\w+)/.exec(value('new'));
  if (!match) throw new Error(`no report column in ${value('new')}`);
  return match[1];
}

// Keys are never deleted: a report replaced by an import keeps its key.
const TABLES = [
  `CREATE TABLE report_keys (
  rk        INTEGER PRIMARY KEY,
  report_id TEXT NOT NULL UNIQUE
) STRICT`,
  `CREATE TABLE company_keys (
  ck         INTEGER PRIMARY KEY,
  company_id TEXT NOT NULL UNIQUE
) STRICT`,
  `CREATE TABLE report_listing (
  rk          INTEGER NOT NULL,
  ck          INTEGER NOT NULL,        -- the company that sees the report
  id          TEXT NOT NULL,           -- the report's id: the tiebreak of every order
  owner_ck    INTEGER NOT NULL,
  has_flag    INTEGER NOT NULL,        -- this company's own state
  is_archived INTEGER NOT NULL,
  ${REPORT_SCALARS.map(([column, type]) => `${column} ${type}`).join(',\n  ')}, shipment_ref TEXT NOT NULL DEFAULT '',
  -- The company's rows lie together: a filter no index serves reads one range of the table.
  PRIMARY KEY (ck, rk)
) STRICT, WITHOUT ROWID`,
  `CREATE VIRTUAL TABLE report_text USING fts5(
  label_reference, label_uid, label_sequence_code, label_name,
  content = '', contentless_delete = 1, tokenize = 'trigram case_sensitive 0'
)`,
  `CREATE TABLE custom_field_elements (
  rk    INTEGER NOT NULL,
  field TEXT NOT NULL,
  elem  INTEGER NOT NULL,              -- the element's json_each id within the value
  text  TEXT,                          -- a text element
  num   ANY,                           -- a number element, integer or real as stored
  PRIMARY KEY (rk, field, elem)
) STRICT, WITHOUT ROWID`,
];

/** One trigger per listing column, fired only when the report column it is read from moves. */
const perColumn = REPORT_SCALARS.map(
  ([column, , value]) => `
CREATE TRIGGER listing_report_update_${column}
AFTER UPDATE OF ${sourceOf(value)} ON label_reports
WHEN ${value('old')} IS NOT ${value('new')} BEGIN
  UPDATE report_listing SET ${column} = ${value('new')} WHERE rk = ${rkOf('new.id')};
END`,
);

const TRIGGERS = [
  `CREATE TRIGGER listing_report_insert AFTER INSERT ON label_reports BEGIN
  ${ensureReportKey('new.id')};
  ${ensureCompanyKey('new.owner_company_id')};
  ${insertListing('a.label_report_id = new.id')};
  ${insertText('r.id = new.id')};
END`,
  `CREATE TRIGGER listing_report_text_update
AFTER UPDATE OF label_reference, label_uid, label_sequence_code, label_name ON label_reports BEGIN
  DELETE FROM report_text WHERE rowid = ${rkOf('old.id')};
  ${insertText('r.id = new.id')};
END`,
  `CREATE TRIGGER listing_report_delete AFTER DELETE ON label_reports BEGIN
  DELETE FROM report_listing WHERE rk = ${rkOf('old.id')};
  DELETE FROM report_text WHERE rowid = ${rkOf('old.id')};
  DELETE FROM custom_field_elements WHERE rk = ${rkOf('old.id')};
END`,
  `CREATE TRIGGER listing_access_insert AFTER INSERT ON access BEGIN
  ${ensureCompanyKey('new.company_id')};
  ${insertListing('a.id = new.id')};
END`,
  `CREATE TRIGGER listing_access_update AFTER UPDATE ON access BEGIN
  DELETE FROM report_listing WHERE rk = ${rkOf('old.label_report_id')} AND ck = ${ckOf('old.company_id')};
  ${ensureCompanyKey('new.company_id')};
  ${insertListing('a.id = new.id')};
END`,
  `CREATE TRIGGER listing_access_delete AFTER DELETE ON access BEGIN
  DELETE FROM report_listing WHERE rk = ${rkOf('old.label_report_id')} AND ck = ${ckOf('old.company_id')};
END`,
  `CREATE TRIGGER listing_state_insert AFTER INSERT ON company_report_state BEGIN
  UPDATE report_listing SET has_flag = new.has_flag, is_archived = new.is_archived
  WHERE rk = ${rkOf('new.label_report_id')} AND ck = ${ckOf('new.company_id')};
END`,
  // The old row's listing row goes back to no state only when the state moved to another
  // report or company: set twice, every kept table split by flag or archive state moved twice.
  `CREATE TRIGGER listing_state_update AFTER UPDATE ON company_report_state BEGIN
  UPDATE report_listing SET has_flag = 0, is_archived = 0
  WHERE (old.label_report_id IS NOT new.label_report_id OR old.company_id IS NOT new.company_id)
    AND rk = ${rkOf('old.label_report_id')} AND ck = ${ckOf('old.company_id')};
  UPDATE report_listing SET has_flag = new.has_flag, is_archived = new.is_archived
  WHERE rk = ${rkOf('new.label_report_id')} AND ck = ${ckOf('new.company_id')};
END`,
  `CREATE TRIGGER listing_state_delete AFTER DELETE ON company_report_state BEGIN
  UPDATE report_listing SET has_flag = 0, is_archived = 0
  WHERE rk = ${rkOf('old.label_report_id')} AND ck = ${ckOf('old.company_id')};
END`,
  `CREATE TRIGGER listing_custom_field_insert AFTER INSERT ON custom_field_values BEGIN
  ${ensureReportKey('new.label_report_id')};
  ${insertElements('v.rowid = new.rowid')};
END`,
  `CREATE TRIGGER listing_custom_field_update AFTER UPDATE ON custom_field_values BEGIN
  DELETE FROM custom_field_elements WHERE rk = ${rkOf('old.label_report_id')} AND field = old.custom_field_id;
  ${ensureReportKey('new.label_report_id')};
  ${insertElements('v.rowid = new.rowid')};
END`,
  `CREATE TRIGGER listing_custom_field_delete AFTER DELETE ON custom_field_values BEGIN
  DELETE FROM custom_field_elements WHERE rk = ${rkOf('old.label_report_id')} AND field = old.custom_field_id;
END`,
  `CREATE TRIGGER listing_report_update_owner_ck
AFTER UPDATE OF owner_company_id ON label_reports
WHEN old.owner_company_id IS NOT new.owner_company_id BEGIN
  ${ensureCompanyKey('new.owner_company_id')};
  UPDATE report_listing SET owner_ck = ${ckOf('new.owner_company_id')} WHERE rk = ${rkOf('new.id')};
END`,
  ...perColumn,
  // A company that groups by label reference follows it; one that groups by a custom field follows that field's value.
  `CREATE TRIGGER listing_shipment_ref_reference AFTER UPDATE OF label_reference ON report_listing
WHEN OLD.label_reference IS NOT NEW.label_reference BEGIN
  UPDATE report_listing SET shipment_ref = NEW.label_reference
  WHERE ck = NEW.ck AND rk = NEW.rk AND (SELECT g.field FROM shipment_grouping g WHERE g.ck = NEW.ck) IS NULL;
END`,
  `CREATE TRIGGER listing_shipment_ref_field_insert AFTER INSERT ON custom_field_values BEGIN
  UPDATE report_listing SET shipment_ref = ${groupingValueOf('NEW.value')}
  WHERE ck IN (SELECT g.ck FROM shipment_grouping g WHERE g.field = NEW.custom_field_id) AND rk = ${rkOf('NEW.label_report_id')};
END`,
  `CREATE TRIGGER listing_shipment_ref_field_update AFTER UPDATE ON custom_field_values BEGIN
  UPDATE report_listing SET shipment_ref = ''
  WHERE (OLD.label_report_id IS NOT NEW.label_report_id OR OLD.custom_field_id IS NOT NEW.custom_field_id)
    AND ck IN (SELECT g.ck FROM shipment_grouping g WHERE g.field = OLD.custom_field_id) AND rk = ${rkOf('OLD.label_report_id')};
  UPDATE report_listing SET shipment_ref = ${groupingValueOf('NEW.value')}
  WHERE ck IN (SELECT g.ck FROM shipment_grouping g WHERE g.field = NEW.custom_field_id) AND rk = ${rkOf('NEW.label_report_id')};
END`,
  `CREATE TRIGGER listing_shipment_ref_field_delete AFTER DELETE ON custom_field_values BEGIN
  UPDATE report_listing SET shipment_ref = ''
  WHERE ck IN (SELECT g.ck FROM shipment_grouping g WHERE g.field = OLD.custom_field_id) AND rk = ${rkOf('OLD.label_report_id')};
END`,
];

/**
 * Every listing row, custom field element and text row made again from the reports, their
 * access entries, states and custom fields, each in one statement in the key order of the table
 * it fills (row by row, each insert would land on a random page of a WITHOUT ROWID table, and the
 * text index would write a segment at every statement). Keys are kept: a report that had one
 * keeps it.
 */
const REBUILD = `INSERT INTO report_keys (report_id) SELECT id FROM label_reports WHERE id NOT IN (SELECT report_id FROM report_keys);
INSERT INTO company_keys (company_id)
  SELECT owner_company_id FROM label_reports UNION SELECT company_id FROM access
  EXCEPT SELECT company_id FROM company_keys;
DELETE FROM report_listing;
DELETE FROM custom_field_elements;
INSERT INTO report_text (report_text) VALUES ('delete-all');
${insertListing()}
    ORDER BY ck.ck, rk.rk;
${insertElements()}
    ORDER BY rk.rk, v.custom_field_id, e.id;
${insertText()}
    ORDER BY rk.rk;`;

export const LISTING: KeptTableDeclaration = {
  name: 'listing',
  tables: TABLES.map(table),
  madeFrom:
    'label_reports (the listing scalars and texts), access (one listing row per company that sees the report), company_report_state (that company\'s flag and archive state) and custom_field_values (the typed elements of each value; other JSON has none)',
  key:
    'report_keys and company_keys: an integer key per report and company id, never deleted; report_listing: (ck, rk), one row per company and report it sees, a company\'s rows together; report_text: the report key as rowid; custom_field_elements: (rk, field, elem), one row per text or number element of a custom field value',
  reads: [
    { read: 'the first page of the report browser (default filters and sort)', figure: '4.8 ms at 100 000 reports against 3 064 ms before the listing layout (p50 over HTTP)' },
    { read: 'the browser\'s filters: status, alert level, mode, type, flagged, archived', figure: '3.0–4.2 ms at 100 000 against 2 752–5 528 ms before the listing layout' },
    { read: 'a custom field condition (`batch[eq]B-42`) from the element index', figure: '3.0 ms at 100 000 against 2 652 ms before the listing layout' },
    { read: 'a text search (`%po-12%`) from the trigram index', figure: '6.7 ms at 100 000 against 189 ms before the listing layout' },
    { read: 'an order by mean kinetic temperature · average temperature · degree hours (their indexes)', figure: '4.7 · 4.5 · 15 ms at 100 000 against 282 · 416 · 125 ms without them' },
  ],
  writes:
    'A report written inserts its listing rows (one per access entry) and text row; each listing column moves only when its own source column does, so an index none of whose columns moved is not rewritten; access entries, company states and custom field values move their rows and elements. Keys are added on first sight and never deleted.',
  triggers: triggers(TRIGGERS),
  indexes: LISTING_INDEXES,
  bulkLoad: 'rebuilt',
  rebuild: REBUILD,
};
