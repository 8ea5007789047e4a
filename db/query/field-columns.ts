/**
 * Where each allow-listed key of the list query (query/fields.ts) lives: a CONSTANT SQL
 * expression over the alias the list query provides:
 *   l = report_listing, the narrow row of one report as the caller's company sees it (its own
 *       flag and archive state included; see the listing migration)
 * Array keys (access.*) are written over the alias x of their element table; the compiler
 * wraps them in EXISTS / NOT EXISTS subqueries (see compile.ts).
 *
 * Nothing from a request is ever spliced into these strings: a key is only used to look its
 * column up here, and every value is bound as a parameter.
 */
import { MODES, REPORT_TYPES, STATUSES } from '../../schema/report';
import { ALERT_LEVEL_NAMES } from '../../sense/alert-rules';

/** The alert levels a report can have, from the no-taps level up. */
const ALERT_LEVELS = Object.keys(ALERT_LEVEL_NAMES).map(Number);

export interface FieldColumn {
  /** Constant SQL expression (over l; over x for array keys). */
  readonly sql: string;
  /** Array keys: the element table and how it links to l. */
  readonly array?: { readonly from: string; readonly link: string };
  /** A column of the trigram index (report_text), which narrows like, ilike and includes. */
  readonly textColumn?: string;
  /** The owner company: equality compares integer keys, so it can seek an index. */
  readonly ownerKey?: boolean;
  /**
   * An index leads with the company and this column (the rare-value indexes migration): a
   * comparison with a value few reports share starts from it, then sorts its matches.
   */
  readonly rareValueIndex?: boolean;
  /**
   * The values the column holds in practice, in SQLite's ascending order: ordered by this key, a
   * page reads each value's rows (and the gaps between, which hold nothing in practice) from an
   * index on (company, column, id), in id order, and merges them. One index then serves both
   * directions with the id tiebreak ascending, where a plain sort would sort every row of the
   * first value.
   */
  readonly orderValues?: readonly (string | number)[];
  /**
   * A column listing_counts splits by (the listing counts migration): a filter that tests only
   * such columns is counted from the kept counts, its condition read over them as over l.
   */
  readonly counted?: boolean;
  /**
   * An index on (company, column, id, archive state) holds this column's order, and long runs of
   * reports share one value (a configuration most labels keep, a count nearly all reach): ordered
   * descending, the page is read from the value the page ends at (see boundaryRanges in
   * compile.ts), so no run is sorted. Ascending, the index's own order is the page's. `nulls`:
   * the column may hold NULL (the listing declares it nullable), whose rows come last.
   */
  readonly boundaryOrder?: { readonly nulls: boolean };
  /**
   * The owner company's id, name or short code, read through the owner's key: ordered by it, a
   * page reads each owner's rows from the index on (company, owner, id) in id order and merges
   * them by the value (see ownerRanges in compile.ts), when the compiler knows the owners' keys.
   */
  readonly byOwner?: boolean;
}

const column = (name: string): FieldColumn => ({ sql: `l.${name}` });
const searchable = (name: string): FieldColumn => ({ sql: `l.${name}`, textColumn: name });
const rareValue = (column: FieldColumn): FieldColumn => ({ ...column, rareValueIndex: true });
const byValues = (column: FieldColumn, values: readonly (string | number)[]): FieldColumn => ({
  ...column,
  orderValues: [...values].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)),
});
const counted = (column: FieldColumn): FieldColumn => ({ ...column, counted: true });
const runs = (column: FieldColumn, nulls = false): FieldColumn => ({ ...column, boundaryOrder: { nulls } });
const ownerCompany = (name: string): string =>
  `(SELECT c.${name} FROM company_keys k JOIN companies c ON c.id = k.company_id WHERE k.ck = l.owner_ck)`;

const ACCESS = { from: 'access x', link: 'x.label_report_id = l.id' } as const;

export const FIELD_COLUMNS: ReadonlyMap<string, FieldColumn> = new Map<string, FieldColumn>([
  ['id', column('id')],
  ['created', column('created')],
  ['updated', column('updated')],
  ['mode', counted(byValues(column('mode'), MODES))],
  ['type', counted(byValues(column('type'), REPORT_TYPES))],
  ['status', counted(byValues(column('status'), STATUSES))],
  ['labelReference', rareValue(searchable('label_reference'))],
  ['hasFlag', counted(byValues(column('has_flag'), [0, 1]))],
  ['isArchived', counted(byValues(column('is_archived'), [0, 1]))],
  ['numberOfTaps', runs(column('number_of_taps'))],
  ['dataIsIncomplete', byValues(column('data_is_incomplete'), [0, 1])],
  ['company.id', { sql: '(SELECT k.company_id FROM company_keys k WHERE k.ck = l.owner_ck)', ownerKey: true, counted: true, byOwner: true }],
  ['company.name', { sql: ownerCompany('name'), byOwner: true }],
  ['company.shortCode', { sql: ownerCompany('short_code'), byOwner: true }],
  ['subCompany.id', runs(column('sub_company_id'), true)],
  ['label.uid', rareValue(searchable('label_uid'))],
  ['label.sequenceCode', rareValue(searchable('label_sequence_code'))],
  ['label.type', runs(column('label_type'))],
  ['label.name', rareValue(searchable('label_name'))],
  ['label.firmwareVersionInfo.firmwareVersion', runs(column('firmware_version'))],
  ['label.firmwareVersionInfo.firmwareApiVersion', runs(column('firmware_api_version'))],
  ['senseConfig.interval', runs(column('interval'))],
  ['senseConfig.configTime', runs(column('config_time'))],
  ['senseConfig.startDelay', runs(column('start_delay'))],
  ['senseConfig.runningTime', runs(column('running_time'))],
  ['senseConfig.limits.minTemperature', runs(column('min_temperature'))],
  ['senseConfig.limits.maxTemperature', runs(column('max_temperature'))],
  ['senseConfig.limits.minHumidity', runs(column('min_humidity'), true)],
  ['senseConfig.limits.maxHumidity', runs(column('max_humidity'), true)],
  ['alert.level', counted(byValues(column('alert_level'), ALERT_LEVELS))],
  ['alert.timestamp', runs(column('alert_timestamp'))],
  ['calculatedSenseData.numberOfDatapointsRead', runs(rareValue(column('calc_datapoints_read')), true)],
  ['calculatedSenseData.numberOfDatapointsAvailable', runs(rareValue(column('calc_datapoints_available')), true)],
  ['calculatedSenseData.numberOfMeasurementsOccurred', runs(rareValue(column('calc_measurements_occurred')), true)],
  ['calculatedSenseData.startTime', column('calc_start_time')],
  ['calculatedSenseData.currentTime', column('calc_current_time')],
  ['calculatedSenseData.elapsedTime', runs(column('calc_elapsed_time'), true)],
  // Excursions per report: none for most, one or a few for the others; rarer counts are sorted.
  ['calculatedSenseData.numberOfViolations.temperature', byValues(column('calc_violations_temperature'), [0, 1, 2, 3])],
  ['calculatedSenseData.numberOfViolations.humidity', rareValue(byValues(column('calc_violations_humidity'), [0, 1, 2, 3]))],
  ['calculatedSenseData.numberOfViolations.all', byValues(column('calc_violations_all'), [0, 1, 2, 3])],
  ['calculatedSenseData.durationOfViolations.temperature', column('calc_violation_duration_temperature')],
  // Most labels meet no humidity limit (or measure none): the run of 0 (or NULL) is read in id order.
  ['calculatedSenseData.durationOfViolations.humidity', rareValue(byValues(column('calc_violation_duration_humidity'), [0]))],
  ['calculatedSenseData.durationOfViolations.all', column('calc_violation_duration_all')],
  ['calculatedSenseData.attainedValues.minTemperature', column('calc_attained_min_temperature')],
  ['calculatedSenseData.attainedValues.maxTemperature', column('calc_attained_max_temperature')],
  ['calculatedSenseData.analysedValues.temperature.average', column('calc_average_temperature')],
  ['calculatedSenseData.analysedValues.temperature.degreeHour', column('calc_degree_hour')],
  ['calculatedSenseData.analysedValues.temperature.meanKineticTemperature', column('calc_mean_kinetic_temperature')],
  ['access.companyId', { sql: 'x.company_id', array: ACCESS }],
  ['access.role', { sql: 'x.role', array: ACCESS }],
]);
