/**
 * `unset` of the /local list and insights: reports where a value is not set, which the /v2
 * filter grammar cannot say (it compares values; a missing one meets no condition). It picks the
 * reports of an insights group that has no list condition otherwise: a custom field's "(not
 * set)", the reports without an MKT (no readings yet), those not started yet.
 */
import type { SqlFragment } from '../db/review-state';
import { customFieldUnset } from '../db/insights-store';
import { InvalidInputError } from '../model/errors';

export const UNSET_MKT = 'calculatedSenseData.analysedValues.temperature.meanKineticTemperature';
export const UNSET_START = 'calculatedSenseData.startTime';
const CUSTOM_FIELD = /^customFields\.[A-Za-z0-9_.-]+$/;
const KEYS_HINT = `customFields.<custom field id>, ${UNSET_MKT} or ${UNSET_START}`;

/** `unset`: keys separated by commas, each at most once; all must be unset. */
export function parseUnsetConditions(value: string | undefined): string[] {
  if (value === undefined) return [];
  const keys = value.split(',');
  const seen = new Set<string>();
  for (const key of keys) {
    if (key !== UNSET_MKT && key !== UNSET_START && !CUSTOM_FIELD.test(key)) {
      throw new InvalidInputError('INVALID_UNSET', `unset '${key}' is not one of ${KEYS_HINT}`);
    }
    if (seen.has(key)) throw new InvalidInputError('INVALID_UNSET', `unset '${key}' is given twice`);
    seen.add(key);
  }
  return keys;
}

/** The conditions on the listing row `l`; null when there are none. */
export function unsetWhere(keys: readonly string[]): SqlFragment | null {
  if (keys.length === 0) return null;
  const parts = keys.map((key): SqlFragment => {
    if (key === UNSET_MKT) return { sql: 'l.calc_mean_kinetic_temperature IS NULL', params: [] };
    if (key === UNSET_START) return { sql: 'l.calc_start_time IS NULL', params: [] };
    return customFieldUnset(key.slice('customFields.'.length));
  });
  return { sql: parts.map((p) => `(${p.sql})`).join(' AND '), params: parts.flatMap((p) => p.params) };
}

/** Both narrowings at once (review first, as their parameters bind); null when neither narrows. */
export function bothWhere(a: SqlFragment | null, b: SqlFragment | null): SqlFragment | null {
  if (a === null) return b;
  if (b === null) return a;
  return { sql: `(${a.sql}) AND (${b.sql})`, params: [...a.params, ...b.params] };
}
