/**
 * What a change log entry says changed: a report flattened to its facts (one value per API
 * field name), and the difference between two such flattenings. Pure functions.
 *
 * Settable fields carry the PATCH body's names (`labelReference`, `limits.maxTemperature`,
 * `trim`, `customFields.<id>`, `hasFlag`/`isArchived` per company), the rest their report
 * paths. The raw datapoints are one fact, logged as their count and a digest: the log says
 * that they changed, not what they were. `updated` is no fact: it moves because facts do.
 */
import { createHash } from 'node:crypto';
import { datapointCount } from '../db/datapoint-codec';
import type { FieldChange } from '../schema/change-log';
import { labelOf, reportedCountersOf, senseConfigOf, trimOf, type ReportRecord } from './report-record';

interface Fact {
  field: string;
  companyId?: string;
  value: unknown;
}
export type Facts = Map<string, Fact>;

/** Per-company booleans: a company without a state row has them false. */
const PER_COMPANY = new Set(['hasFlag', 'isArchived']);

export function reportFacts({ row, access, states, customFields }: ReportRecord): Facts {
  const facts: Facts = new Map();
  const put = (field: string, value: unknown, companyId?: string) =>
    facts.set(companyId === undefined ? field : `${field}@${companyId}`, { field, ...(companyId !== undefined && { companyId }), value });
  const putAll = (prefix: string, object: object) => {
    for (const [key, value] of Object.entries(object)) {
      const field = `${prefix}.${key}`;
      if (value !== null && typeof value === 'object' && !Array.isArray(value)) putAll(field, value);
      else put(field, value);
    }
  };
  const { limits, ...senseConfig } = senseConfigOf(row);
  put('company.id', row.owner_company_id);
  put('subCompany', parsed(row.sub_company));
  put('user', parsed(row.user_info));
  put('labelPreset', parsed(row.label_preset));
  putAll('label', labelOf(row));
  put('label.batteryLifeDays', row.battery_life_days);
  put('mode', row.mode);
  put('type', row.type);
  put('status', row.status);
  put('labelReference', row.label_reference);
  putAll('senseConfig', senseConfig);
  putAll('limits', limits);
  put('alertsConfig', parsed(row.alerts_config));
  put('numberOfTaps', row.number_of_taps);
  put('dataIsIncomplete', row.data_is_incomplete === 1);
  putAll('reportedSenseData', reportedCountersOf(row));
  put('reportedSenseData.datapoints', row.datapoints);
  put('trim', trimOf(row));
  put('alert.level', row.alert_level);
  put('alert.timestamp', row.alert_timestamp);
  for (const entry of access) put(`access.${entry.company_id}`, entry.role);
  for (const state of states) {
    if (state.has_flag === 1) put('hasFlag', true, state.company_id);
    if (state.is_archived === 1) put('isArchived', true, state.company_id);
  }
  for (const field of customFields) put(`customFields.${field.custom_field_id}`, JSON.parse(field.value));
  return facts;
}

/** Every fact that differs, in the order of `after` then the facts `after` no longer has. */
export function diffFacts(before: Facts, after: Facts): FieldChange[] {
  const changes: FieldChange[] = [];
  const compare = (key: string) => {
    const a = before.get(key);
    const b = after.get(key);
    const { field, companyId } = (b ?? a)!;
    const absent = PER_COMPANY.has(field) ? false : null;
    const old = a === undefined ? absent : a.value;
    const now = b === undefined ? absent : b.value;
    if (same(old, now)) return;
    changes.push({ field, ...(companyId !== undefined && { companyId }), old: logged(old), new: logged(now) });
  };
  for (const key of after.keys()) compare(key);
  for (const key of before.keys()) if (!after.has(key)) compare(key);
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

function parsed(text: string | null): unknown {
  return text === null ? null : JSON.parse(text);
}
