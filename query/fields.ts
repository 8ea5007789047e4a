/**
 * The allow-list of keys that `filter` and `order` of GET /v2/labelReports accept
 * (decisions §3 "List parameters"), each mapped to a CONSTANT SQL expression.
 *
 * The expressions are written over the aliases the list query provides:
 *   r = label_reports
 *   c = companies row of the owner        (JOIN companies c ON c.id = r.owner_company_id)
 *   s = company_report_state of the CALLER (LEFT JOIN ... AND s.company_id = :caller; may be NULL)
 * Array keys (access.*) are written over the alias x of their element table; the compiler
 * wraps them in EXISTS / NOT EXISTS subqueries (see compile.ts).
 *
 * Nothing from a request is ever spliced into these strings: a key is only used to look its
 * definition up here, and every value is bound as a parameter.
 */
import { MODES, REPORT_TYPES, ROLES, STATUSES } from '../schema/report';

/** How values of a key are read and compared. */
export type FieldType = 'string' | 'number' | 'boolean' | 'instant';

export interface FieldDef {
  readonly type: FieldType;
  /** Constant SQL expression (over r, c, s; over x for array keys). */
  readonly sql: string;
  /** The only values eq/neq (and includes on array keys) accept, for enum keys. */
  readonly values?: readonly string[];
  /** Whether the expression can be NULL (informative; neq handles NULL either way). */
  readonly nullable?: boolean;
  /** Array keys: a condition holds when any element satisfies it. Filter only, never order. */
  readonly array?: { readonly from: string; readonly link: string };
  /**
   * Text searches (like, ilike, includes) cannot seek an index, but scanning a small index is
   * far cheaper than scanning the table: the column's own index, for alias t of label_reports.
   */
  readonly textIndex?: { readonly index: string; readonly sql: string };
}

const calc = (path: string, nullable = false): FieldDef => ({
  type: 'number',
  sql: `json_extract(r.calculated, '$.${path}')`,
  ...(nullable ? { nullable: true } : {}),
});

const ACCESS = { from: 'access x', link: 'x.label_report_id = r.id' } as const;

/** Every key of the allow-list. Order of entries is the order of decisions §3. */
export const FIELDS: ReadonlyMap<string, FieldDef> = new Map<string, FieldDef>([
  ['id', { type: 'string', sql: 'r.id' }],
  ['created', { type: 'instant', sql: 'r.created' }],
  ['updated', { type: 'instant', sql: 'r.updated' }],
  ['mode', { type: 'string', sql: 'r.mode', values: MODES }],
  ['type', { type: 'string', sql: 'r.type', values: REPORT_TYPES }],
  ['status', { type: 'string', sql: 'r.status', values: STATUSES }],
  ['labelReference', { type: 'string', sql: 'r.label_reference', textIndex: { index: 'label_reports_reference', sql: 't.label_reference' } }],
  ['hasFlag', { type: 'boolean', sql: 'COALESCE(s.has_flag, 0)' }],
  ['isArchived', { type: 'boolean', sql: 'COALESCE(s.is_archived, 0)' }],
  ['numberOfTaps', { type: 'number', sql: 'r.number_of_taps' }],
  ['dataIsIncomplete', { type: 'boolean', sql: 'r.data_is_incomplete' }],
  ['company.id', { type: 'string', sql: 'c.id' }],
  ['company.name', { type: 'string', sql: 'c.name' }],
  ['company.shortCode', { type: 'string', sql: 'c.short_code' }],
  ['subCompany.id', { type: 'string', sql: 'r.sub_company_id', nullable: true }],
  ['label.uid', { type: 'string', sql: 'r.label_uid', textIndex: { index: 'label_reports_label_uid', sql: 't.label_uid' } }],
  ['label.sequenceCode', { type: 'string', sql: 'r.label_sequence_code', textIndex: { index: 'label_reports_sequence_code', sql: 't.label_sequence_code' } }],
  ['label.type', { type: 'string', sql: 'r.label_type' }],
  ['label.name', { type: 'string', sql: 'r.label_name' }],
  ['label.firmwareVersionInfo.firmwareVersion', { type: 'string', sql: 'r.firmware_version' }],
  ['label.firmwareVersionInfo.firmwareApiVersion', { type: 'string', sql: 'r.firmware_api_version' }],
  ['senseConfig.interval', { type: 'number', sql: 'r.interval' }],
  ['senseConfig.configTime', { type: 'number', sql: 'r.config_time' }],
  ['senseConfig.startDelay', { type: 'number', sql: 'r.start_delay' }],
  ['senseConfig.runningTime', { type: 'number', sql: 'r.running_time' }],
  ['senseConfig.limits.minTemperature', { type: 'number', sql: 'r.min_temperature' }],
  ['senseConfig.limits.maxTemperature', { type: 'number', sql: 'r.max_temperature' }],
  ['senseConfig.limits.minHumidity', { type: 'number', sql: 'r.min_humidity', nullable: true }],
  ['senseConfig.limits.maxHumidity', { type: 'number', sql: 'r.max_humidity', nullable: true }],
  ['alert.level', { type: 'number', sql: 'r.alert_level' }],
  ['alert.timestamp', { type: 'number', sql: 'r.alert_timestamp' }],
  ['calculatedSenseData.numberOfDatapointsRead', calc('numberOfDatapointsRead')],
  ['calculatedSenseData.numberOfDatapointsAvailable', calc('numberOfDatapointsAvailable')],
  ['calculatedSenseData.numberOfMeasurementsOccurred', calc('numberOfMeasurementsOccurred')],
  ['calculatedSenseData.startTime', calc('startTime')],
  ['calculatedSenseData.currentTime', calc('currentTime')],
  ['calculatedSenseData.elapsedTime', calc('elapsedTime')],
  ['calculatedSenseData.numberOfViolations.temperature', calc('numberOfViolations.temperature')],
  ['calculatedSenseData.numberOfViolations.humidity', calc('numberOfViolations.humidity')],
  ['calculatedSenseData.numberOfViolations.all', calc('numberOfViolations.all')],
  ['calculatedSenseData.durationOfViolations.temperature', calc('durationOfViolations.temperature')],
  ['calculatedSenseData.durationOfViolations.humidity', calc('durationOfViolations.humidity')],
  ['calculatedSenseData.durationOfViolations.all', calc('durationOfViolations.all')],
  ['calculatedSenseData.attainedValues.minTemperature', calc('attainedValues.minTemperature', true)],
  ['calculatedSenseData.attainedValues.maxTemperature', calc('attainedValues.maxTemperature', true)],
  ['calculatedSenseData.analysedValues.temperature.average', calc('analysedValues.temperature.average', true)],
  ['calculatedSenseData.analysedValues.temperature.degreeHour', calc('analysedValues.temperature.degreeHour')],
  [
    'calculatedSenseData.analysedValues.temperature.meanKineticTemperature',
    calc('analysedValues.temperature.meanKineticTemperature', true),
  ],
  ['access.companyId', { type: 'string', sql: 'x.company_id', array: ACCESS }],
  ['access.role', { type: 'string', sql: 'x.role', values: ROLES, array: ACCESS }],
]);

/** The definition of an allow-listed key, or undefined (a Map: `__proto__` and friends are not keys). */
export function lookupField(key: string): FieldDef | undefined {
  return FIELDS.get(key);
}
