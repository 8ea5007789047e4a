/**
 * The allow-list of keys that `filter` and `order` of GET /v2/labelReports accept
 * (docs/api.md#list-parameters), with the type each key's values take. How a key is stored
 * is the database's business (db/query/field-columns.ts); a test keeps the two lists equal.
 */
import { MODES, REPORT_TYPES, ROLES, STATUSES } from '../schema/report';

/** How values of a key are read and compared. */
export type FieldType = 'string' | 'number' | 'boolean' | 'instant';

export interface FieldDef {
  readonly type: FieldType;
  /** The only values eq/neq (and includes on array keys) accept, for enum keys. */
  readonly values?: readonly string[];
  /** Whether the value can be null (informative; neq handles null either way). */
  readonly nullable?: boolean;
  /** Array keys: a condition holds when any element satisfies it. Filter only, never order. */
  readonly array?: boolean;
}

/** Every key of the allow-list. Order of entries is the order of docs/api.md#list-parameters. */
export const FIELDS: ReadonlyMap<string, FieldDef> = new Map<string, FieldDef>([
  ['id', { type: 'string' }],
  ['created', { type: 'instant' }],
  ['updated', { type: 'instant' }],
  ['mode', { type: 'string', values: MODES }],
  ['type', { type: 'string', values: REPORT_TYPES }],
  ['status', { type: 'string', values: STATUSES }],
  ['labelReference', { type: 'string' }],
  ['hasFlag', { type: 'boolean' }],
  ['isArchived', { type: 'boolean' }],
  ['numberOfTaps', { type: 'number' }],
  ['dataIsIncomplete', { type: 'boolean' }],
  ['company.id', { type: 'string' }],
  ['company.name', { type: 'string' }],
  ['company.shortCode', { type: 'string' }],
  ['subCompany.id', { type: 'string', nullable: true }],
  ['label.uid', { type: 'string' }],
  ['label.sequenceCode', { type: 'string' }],
  ['label.type', { type: 'string' }],
  ['label.name', { type: 'string' }],
  ['label.firmwareVersionInfo.firmwareVersion', { type: 'string' }],
  ['label.firmwareVersionInfo.firmwareApiVersion', { type: 'string' }],
  ['senseConfig.interval', { type: 'number' }],
  ['senseConfig.configTime', { type: 'number' }],
  ['senseConfig.startDelay', { type: 'number' }],
  ['senseConfig.runningTime', { type: 'number' }],
  ['senseConfig.limits.minTemperature', { type: 'number' }],
  ['senseConfig.limits.maxTemperature', { type: 'number' }],
  ['senseConfig.limits.minHumidity', { type: 'number', nullable: true }],
  ['senseConfig.limits.maxHumidity', { type: 'number', nullable: true }],
  ['alert.level', { type: 'number' }],
  ['alert.timestamp', { type: 'number' }],
  ['calculatedSenseData.numberOfDatapointsRead', { type: 'number' }],
  ['calculatedSenseData.numberOfDatapointsAvailable', { type: 'number' }],
  ['calculatedSenseData.numberOfMeasurementsOccurred', { type: 'number' }],
  ['calculatedSenseData.startTime', { type: 'number' }],
  ['calculatedSenseData.currentTime', { type: 'number' }],
  ['calculatedSenseData.elapsedTime', { type: 'number' }],
  ['calculatedSenseData.numberOfViolations.temperature', { type: 'number' }],
  ['calculatedSenseData.numberOfViolations.humidity', { type: 'number' }],
  ['calculatedSenseData.numberOfViolations.all', { type: 'number' }],
  ['calculatedSenseData.durationOfViolations.temperature', { type: 'number' }],
  ['calculatedSenseData.durationOfViolations.humidity', { type: 'number' }],
  ['calculatedSenseData.durationOfViolations.all', { type: 'number' }],
  ['calculatedSenseData.attainedValues.minTemperature', { type: 'number', nullable: true }],
  ['calculatedSenseData.attainedValues.maxTemperature', { type: 'number', nullable: true }],
  ['calculatedSenseData.analysedValues.temperature.average', { type: 'number', nullable: true }],
  ['calculatedSenseData.analysedValues.temperature.degreeHour', { type: 'number' }],
  ['calculatedSenseData.analysedValues.temperature.meanKineticTemperature', { type: 'number', nullable: true }],
  ['access.companyId', { type: 'string', array: true }],
  ['access.role', { type: 'string', values: ROLES, array: true }],
]);

/** The definition of an allow-listed key, or undefined (a Map: `__proto__` and friends are not keys). */
export function lookupField(key: string): FieldDef | undefined {
  return FIELDS.get(key);
}
