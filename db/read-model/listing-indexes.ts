/**
 * The indexes of report_listing and custom_field_elements, as the listing's declaration
 * (./listing.ts) holds them. Every one leads with the company (a list query and its count read
 * one company's range) except the report key's, which finds a report's rows for the triggers
 * and the bulk rebuild. A bulk load sets all but that one aside and builds them again after,
 * one sort each.
 */
import { index, type DeclaredIndex } from './declaration';

/** Index columns after the company: each UI path reads them in its order, ties by id. */
export const BY_CREATED = 'created DESC, id';

/** [index name, figure column]: the analysed temperature figures (mean kinetic temperature, degree hours, average). */
export const FIGURE_INDEXES: readonly (readonly [string, string])[] = [
  ['listing_mean_kinetic_temperature', 'calc_mean_kinetic_temperature'],
  ['listing_degree_hour', 'calc_degree_hour'],
  ['listing_average_temperature', 'calc_average_temperature'],
];

/** [index name, figure column]: the other figures of the calculated sense data a list is ordered by. */
export const NEW_FIGURE_INDEXES: readonly (readonly [string, string])[] = [
  ['listing_start_time', 'calc_start_time'],
  ['listing_current_time', 'calc_current_time'],
  ['listing_elapsed_time', 'calc_elapsed_time'],
  ['listing_violations_temperature', 'calc_violations_temperature'],
  ['listing_violation_duration_temperature', 'calc_violation_duration_temperature'],
  ['listing_violation_duration_all', 'calc_violation_duration_all'],
  ['listing_attained_min_temperature', 'calc_attained_min_temperature'],
  ['listing_attained_max_temperature', 'calc_attained_max_temperature'],
];

/** [index name, figure column]: the humidity excursions, rare values given the tiebreak, then the created order. */
export const REBUILT_FIGURE_INDEXES: readonly (readonly [string, string])[] = [
  ['listing_violations_humidity', 'calc_violations_humidity'],
  ['listing_violation_duration_humidity', 'calc_violation_duration_humidity'],
];

/** [index name, listing column]: the remaining keys a list is ordered by. */
export const KEY_ORDER_INDEXES: readonly (readonly [string, string])[] = [
  ['listing_number_of_taps', 'number_of_taps'],
  ['listing_data_is_incomplete', 'data_is_incomplete'],
  ['listing_sub_company', 'sub_company_id'],
  ['listing_label_type', 'label_type'],
  ['listing_firmware_version', 'firmware_version'],
  ['listing_firmware_api_version', 'firmware_api_version'],
  ['listing_interval', 'interval'],
  ['listing_config_time', 'config_time'],
  ['listing_start_delay', 'start_delay'],
  ['listing_running_time', 'running_time'],
  ['listing_min_temperature', 'min_temperature'],
  ['listing_max_temperature', 'max_temperature'],
  ['listing_min_humidity', 'min_humidity'],
  ['listing_max_humidity', 'max_humidity'],
  ['listing_alert_timestamp', 'alert_timestamp'],
];

/** [index name, listing column]: the datapoint counts, rare values given the tiebreak, then the created order. */
export const REBUILT_COUNT_INDEXES: readonly (readonly [string, string])[] = [
  ['listing_datapoints_read', 'calc_datapoints_read'],
  ['listing_datapoints_available', 'calc_datapoints_available'],
  ['listing_measurements_occurred', 'calc_measurements_occurred'],
];

/** [index name, listing column]: values few reports share, searched by equality, their matches in the created order. */
const RARE_TEXT_INDEXES: readonly (readonly [string, string])[] = [
  ['listing_reference', 'label_reference'],
  ['listing_label_uid', 'label_uid'],
  ['listing_sequence_code', 'label_sequence_code'],
  ['listing_label_name', 'label_name'],
];

/** After the company: the column, the tiebreak, the archive state, then what else the index carries. */
const BY_VALUE: readonly (readonly [string, string, ...string[]])[] = [
  ['listing_status', 'status', 'alert_level'],
  ['listing_alert', 'alert_level', 'status'],
  ['listing_mode', 'mode'],
  ['listing_type', 'type'],
  ['listing_flag', 'has_flag'],
  ['listing_violations_all', 'calc_violations_all'],
];

/** The texts listing_archived carries, in its order after the browser's filter columns. */
export const WALKED_TEXTS = ['label_reference', 'label_sequence_code'] as const;

/** The listing columns listing_archived holds after the company and the archive state: a walk of it tests these without reading a row. */
export const ARCHIVED_INDEX_COLUMNS = ['created', 'id', 'status', 'alert_level', 'has_flag', 'mode', 'type', 'owner_ck', ...WALKED_TEXTS] as const;

const ORDERED = 'a page ordered by the column walks the company\'s entries in order and stops at the page instead of sorting every report the company sees (the id as tiebreak; the archive state, the browser\'s filter, tested inside the index)';
const RARE = 'a filter on a value few reports share starts from the value and sorts its few matches by created, covered by the index';

/** The indexes of report_listing and custom_field_elements. */
export const LISTING_INDEXES: readonly DeclaredIndex[] = [
  index('CREATE INDEX listing_report ON report_listing (rk)', "a report's listing rows, for the triggers and the bulk rebuild", true),
  index(`CREATE INDEX listing_created ON report_listing (ck, ${BY_CREATED})`, 'the default order, newest first'),
  index('CREATE INDEX listing_updated ON report_listing (ck, updated DESC, id)', 'the order by last change, and a sync pull by updated'),
  index('CREATE INDEX custom_field_elements_text ON custom_field_elements (field, text) WHERE text IS NOT NULL', 'a custom field condition on a text: an index search instead of JSON parsing'),
  index('CREATE INDEX custom_field_elements_num ON custom_field_elements (field, num) WHERE num IS NOT NULL', 'a custom field condition on a number'),
  ...RARE_TEXT_INDEXES.map(([name, column]) => index(`CREATE INDEX ${name} ON report_listing (ck, ${column}, created DESC, id)`, RARE)),
  ...BY_VALUE.map(([name, column, ...carried]) =>
    index(
      `CREATE INDEX ${name} ON report_listing (${['ck', column, 'id', 'is_archived', ...carried].join(', ')})`,
      `ordered by ${column}, each value's rows lie in id order and the compiler merges them in either direction without sorting; counts the filter without reading a listing row`,
    ),
  ),
  index('CREATE INDEX listing_id ON report_listing (ck, id, is_archived)', 'the order by id (the archive column), and a count of the archive filter'),
  ...FIGURE_INDEXES.map(([name, column]) => index(`CREATE INDEX ${name} ON report_listing (ck, ${column}, id, is_archived)`, ORDERED)),
  ...NEW_FIGURE_INDEXES.map(([name, column]) => index(`CREATE INDEX ${name} ON report_listing (ck, ${column}, id, is_archived)`, ORDERED)),
  ...REBUILT_FIGURE_INDEXES.map(([name, column]) => index(`CREATE INDEX ${name} ON report_listing (ck, ${column}, id, is_archived, created)`, `${ORDERED}; ${RARE}`)),
  ...KEY_ORDER_INDEXES.map(([name, column]) => index(`CREATE INDEX ${name} ON report_listing (ck, ${column}, id, is_archived)`, ORDERED)),
  index(
    'CREATE INDEX listing_owner ON report_listing (ck, owner_ck, id, is_archived)',
    "ordered by the owner, each owner's rows in id order, merged by the owner's value; a count of shared-with-me reads the owner's range",
  ),
  ...REBUILT_COUNT_INDEXES.map(([name, column]) => index(`CREATE INDEX ${name} ON report_listing (ck, ${column}, id, is_archived, created)`, `${ORDERED}; ${RARE}`)),
  index(
    `CREATE INDEX listing_archived ON report_listing (ck, is_archived, ${ARCHIVED_INDEX_COLUMNS.map((c) => (c === 'created' ? 'created DESC' : c)).join(', ')})`,
    "the browser's views (archived hidden or shown) in the default order, each filter of the browser and a search of the reference or sequence code tested inside the index without reading the listing row",
  ),
];

/**
 * The listing columns an index holds right after the company, each with that index: a
 * comparison on one is a search of that index within the company's rows, which the compiler may
 * start a page from (the first such index, when two lead with one column).
 */
export const SEARCHED_COLUMNS: ReadonlyMap<string, string> = new Map(
  LISTING_INDEXES.flatMap((declared) => {
    const found = /^CREATE INDEX (\w+) ON report_listing \(ck, (\w+)/.exec(declared.sql);
    return found ? [[found[2], found[1]] as const] : [];
  }).reverse(),
);
