/**
 * `unset` of the /local list and insights: reports where a value is not set, which the /v2
 * filter grammar cannot say (it compares values; a missing one meets no condition). It picks the
 * reports of an insights group that has no list condition otherwise: a custom field's "(not
 * set)", the reports without an MKT (no readings yet), those not started yet.
 */
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
