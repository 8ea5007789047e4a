/**
 * What a change log entry says changed: a report flattened to its facts (one value per API
 * field name), and the difference between two reports. Pure functions.
 *
 * Settable fields carry their names of the field registry (`labelReference`,
 * `limits.maxTemperature`, `trim`, `customFields.<id>`, `hasFlag`/`isArchived` per company),
 * the rest their report paths. The raw datapoints are one fact, logged as their count and a
 * digest: the log says that they changed, not what they were. `updated` is no fact: it moves
 * because facts do.
 */
import { createHash } from 'node:crypto';
import type { FieldChange } from '../schema/change-log';
import { datapointCount } from './datapoint-codec';
import type { Report } from './report';

interface Fact {
  field: string;
  companyId?: string;
  value: unknown;
}
type Facts = Map<string, Fact>;

/** Per-company booleans: a company without a state has them false. */
const PER_COMPANY = new Set(['hasFlag', 'isArchived']);

function reportFacts(r: Report): Facts {
  const facts: Facts = new Map();
  const put = (field: string, value: unknown, companyId?: string) =>
    facts.set(companyId === undefined ? field : `${field}@${companyId}`, { field, ...(companyId !== undefined && { companyId }), value });
  const putSet = (field: string, value: unknown) => {
    if (value !== undefined) put(field, value);
  };
  const { label, senseConfig, reported } = r;
  const { limits } = senseConfig;
  put('company.id', r.ownerCompanyId);
  put('subCompany', r.subCompany);
  put('user', r.user);
  put('labelPreset', r.labelPreset);
  put('label.uid', label.uid);
  put('label.sequenceCode', label.sequenceCode);
  put('label.type', label.type);
  put('label.name', label.name);
  put('label.firmwareVersionInfo.firmwareVersion', label.firmwareVersionInfo.firmwareVersion);
  put('label.firmwareVersionInfo.firmwareApiVersion', label.firmwareVersionInfo.firmwareApiVersion);
  put('label.batteryLifeDays', label.batteryLifeDays);
  put('mode', r.mode);
  put('type', r.type);
  put('status', r.status);
  put('labelReference', r.labelReference);
  put('senseConfig.interval', senseConfig.interval);
  put('senseConfig.configTime', senseConfig.configTime);
  put('senseConfig.startDelay', senseConfig.startDelay);
  put('senseConfig.runningTime', senseConfig.runningTime);
  put('limits.minTemperature', limits.minTemperature);
  put('limits.maxTemperature', limits.maxTemperature);
  putSet('limits.minHumidity', limits.minHumidity);
  putSet('limits.maxHumidity', limits.maxHumidity);
  put('alertsConfig', r.alertsConfig);
  put('numberOfTaps', r.numberOfTaps);
  put('dataIsIncomplete', r.dataIsIncomplete);
  putSet('reportedSenseData.currentTime', reported.currentTime);
  putSet('reportedSenseData.numberOfDatapointsAvailable', reported.numberOfDatapointsAvailable);
  putSet('reportedSenseData.numberOfMeasurementsOccurred', reported.numberOfMeasurementsOccurred);
  put('reportedSenseData.datapoints', r.datapoints);
  put('trim', r.trim);
  put('alert.level', r.figures.alert.level);
  put('alert.timestamp', r.figures.alert.timestamp);
  for (const entry of r.access) put(`access.${entry.companyId}`, entry.role);
  for (const state of r.states) {
    if (state.hasFlag) put('hasFlag', true, state.companyId);
    if (state.isArchived) put('isArchived', true, state.companyId);
  }
  for (const field of r.customFields) put(`customFields.${field.customFieldId}`, field.value);
  return facts;
}

/** Every fact that differs, in the order of `after` then the facts `after` no longer has. */
export function diffReports(before: Report, after: Report): FieldChange[] {
  const a = reportFacts(before);
  const b = reportFacts(after);
  const changes: FieldChange[] = [];
  const compare = (key: string) => {
    const was = a.get(key);
    const is = b.get(key);
    const { field, companyId } = (is ?? was)!;
    const absent = PER_COMPANY.has(field) ? false : null;
    const old = was === undefined ? absent : was.value;
    const now = is === undefined ? absent : is.value;
    if (same(old, now)) return;
    changes.push({ field, ...(companyId !== undefined && { companyId }), old: logged(old), new: logged(now) });
  };
  for (const key of b.keys()) compare(key);
  for (const key of a.keys()) if (!b.has(key)) compare(key);
  return changes;
}

function same(a: unknown, b: unknown): boolean {
  if (Buffer.isBuffer(a) && Buffer.isBuffer(b)) return a.equals(b);
  return a === b || JSON.stringify(a) === JSON.stringify(b);
}

function logged(value: unknown): unknown {
  if (!Buffer.isBuffer(value)) return value ?? null;
  return { count: datapointCount(value), sha256: createHash('sha256').update(value).digest('hex').slice(0, 16) };
}
