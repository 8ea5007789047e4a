/**
 * Where each allow-listed key of the list query (query/fields.ts) lives: a CONSTANT SQL
 * expression over the aliases the list query provides:
 *   r = label_reports
 *   c = companies row of the owner        (JOIN companies c ON c.id = r.owner_company_id)
 *   s = company_report_state of the CALLER (LEFT JOIN ... AND s.company_id = :caller; may be NULL)
 * Array keys (access.*) are written over the alias x of their element table; the compiler
 * wraps them in EXISTS / NOT EXISTS subqueries (see compile.ts).
 *
 * Nothing from a request is ever spliced into these strings: a key is only used to look its
 * column up here, and every value is bound as a parameter.
 */

export interface FieldColumn {
  /** Constant SQL expression (over r, c, s; over x for array keys). */
  readonly sql: string;
  /** Array keys: the element table and how it links to r. */
  readonly array?: { readonly from: string; readonly link: string };
  /**
   * Text searches (like, ilike, includes) cannot seek an index, but scanning a small index is
   * far cheaper than scanning the table: the column's own index, for alias t of label_reports.
   */
  readonly textIndex?: { readonly index: string; readonly sql: string };
}

const calc = (path: string): FieldColumn => ({ sql: `json_extract(r.calculated, '$.${path}')` });

const ACCESS = { from: 'access x', link: 'x.label_report_id = r.id' } as const;

export const FIELD_COLUMNS: ReadonlyMap<string, FieldColumn> = new Map<string, FieldColumn>([
  ['id', { sql: 'r.id' }],
  ['created', { sql: 'r.created' }],
  ['updated', { sql: 'r.updated' }],
  ['mode', { sql: 'r.mode' }],
  ['type', { sql: 'r.type' }],
  ['status', { sql: 'r.status' }],
  ['labelReference', { sql: 'r.label_reference', textIndex: { index: 'label_reports_reference', sql: 't.label_reference' } }],
  ['hasFlag', { sql: 'COALESCE(s.has_flag, 0)' }],
  ['isArchived', { sql: 'COALESCE(s.is_archived, 0)' }],
  ['numberOfTaps', { sql: 'r.number_of_taps' }],
  ['dataIsIncomplete', { sql: 'r.data_is_incomplete' }],
  ['company.id', { sql: 'c.id' }],
  ['company.name', { sql: 'c.name' }],
  ['company.shortCode', { sql: 'c.short_code' }],
  ['subCompany.id', { sql: 'r.sub_company_id' }],
  ['label.uid', { sql: 'r.label_uid', textIndex: { index: 'label_reports_label_uid', sql: 't.label_uid' } }],
  ['label.sequenceCode', { sql: 'r.label_sequence_code', textIndex: { index: 'label_reports_sequence_code', sql: 't.label_sequence_code' } }],
  ['label.type', { sql: 'r.label_type' }],
  ['label.name', { sql: 'r.label_name' }],
  ['label.firmwareVersionInfo.firmwareVersion', { sql: 'r.firmware_version' }],
  ['label.firmwareVersionInfo.firmwareApiVersion', { sql: 'r.firmware_api_version' }],
  ['senseConfig.interval', { sql: 'r.interval' }],
  ['senseConfig.configTime', { sql: 'r.config_time' }],
  ['senseConfig.startDelay', { sql: 'r.start_delay' }],
  ['senseConfig.runningTime', { sql: 'r.running_time' }],
  ['senseConfig.limits.minTemperature', { sql: 'r.min_temperature' }],
  ['senseConfig.limits.maxTemperature', { sql: 'r.max_temperature' }],
  ['senseConfig.limits.minHumidity', { sql: 'r.min_humidity' }],
  ['senseConfig.limits.maxHumidity', { sql: 'r.max_humidity' }],
  ['alert.level', { sql: 'r.alert_level' }],
  ['alert.timestamp', { sql: 'r.alert_timestamp' }],
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
  ['calculatedSenseData.attainedValues.minTemperature', calc('attainedValues.minTemperature')],
  ['calculatedSenseData.attainedValues.maxTemperature', calc('attainedValues.maxTemperature')],
  ['calculatedSenseData.analysedValues.temperature.average', calc('analysedValues.temperature.average')],
  ['calculatedSenseData.analysedValues.temperature.degreeHour', calc('analysedValues.temperature.degreeHour')],
  ['calculatedSenseData.analysedValues.temperature.meanKineticTemperature', calc('analysedValues.temperature.meanKineticTemperature')],
  ['access.companyId', { sql: 'x.company_id', array: ACCESS }],
  ['access.role', { sql: 'x.role', array: ACCESS }],
]);
