/**
 * `bundleReportSchema.safeParse`, with a fast path for the datapoints: a report carries
 * thousands of them, and checking them by hand is an order of magnitude quicker than zod. The
 * hand check is derived from the schema itself (see `datapointPlan`) and only ever accepts what
 * the schema accepts; whenever it is unsure, zod decides (and words the problems).
 */
import type { z } from 'zod';
import { bundleReportSchema, type BundleReport } from '../../schema/bundle';

export function validateBundleReport(value: unknown): z.ZodSafeParseResult<BundleReport> {
  const plan = DATAPOINT_PLAN;
  if (plan !== null && isPlainObject(value) && isPlainObject(value.reportedSenseData)) {
    const datapoints = value.reportedSenseData.datapoints;
    if (Array.isArray(datapoints) && datapointsAreValid(datapoints, plan)) {
      const shallow = { ...value, reportedSenseData: { ...value.reportedSenseData, datapoints: [] } };
      const result = bundleReportSchema.safeParse(shallow);
      if (result.success) result.data.reportedSenseData.datapoints = datapoints as BundleReport['reportedSenseData']['datapoints'];
      return result;
    }
  }
  return bundleReportSchema.safeParse(value);
}

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** What a number field of a datapoint must be, read from its zod schema: the tightest bounds. */
interface NumberRule {
  integer: boolean;
  min: number;
  /** Whether `min` itself is allowed. */
  minInclusive: boolean;
  max: number;
  maxInclusive: boolean;
}

interface DatapointPlan {
  timestamp: NumberRule;
  temperature: NumberRule;
  /** null when the schema has no optional humidity. */
  humidity: NumberRule | null;
  maxLength: number;
}

/**
 * The datapoint rules, read from `bundleReportSchema` once. Anything this does not recognise
 * (another field, a refinement, an unknown check) gives null: no fast path, zod checks
 * everything. So a change to the schema can make the import slower, never wrong.
 */
export const DATAPOINT_PLAN: DatapointPlan | null = datapointPlan();

function datapointPlan(): DatapointPlan | null {
  try {
    type Loose = { def: Record<string, any>; shape?: Record<string, Loose> };
    const reported = (bundleReportSchema as unknown as Loose).shape?.reportedSenseData;
    if (reported?.def.type !== 'object') return null;
    const array = reported.shape?.datapoints;
    if (array?.def.type !== 'array') return null;
    let maxLength = Infinity;
    for (const check of array.def.checks ?? []) {
      const d = check._zod.def;
      if (d.check !== 'max_length') return null;
      maxLength = Math.min(maxLength, d.maximum);
    }
    const element = array.def.element as Loose;
    if (element.def.type !== 'object' || element.def.catchall?.def?.type !== 'never' || (element.def.checks ?? []).length > 0) return null;
    const shape = element.shape ?? {};
    const keys = Object.keys(shape).sort().join(',');
    if (keys !== 'humidity,temperature,timestamp' && keys !== 'temperature,timestamp') return null;
    const timestamp = numberRule(shape.timestamp);
    const temperature = numberRule(shape.temperature);
    if (timestamp === null || temperature === null) return null;
    let humidity: NumberRule | null = null;
    if (shape.humidity) {
      if (shape.humidity.def.type !== 'optional') return null;
      humidity = numberRule(shape.humidity.def.innerType);
      if (humidity === null) return null;
    }
    return { timestamp, temperature, humidity, maxLength };
  } catch {
    return null;
  }
}

function numberRule(schema: { def: Record<string, any> } | undefined): NumberRule | null {
  if (!schema || schema.def.type !== 'number') return null;
  const rule: NumberRule = { integer: false, min: -Infinity, minInclusive: true, max: Infinity, maxInclusive: true };
  if (schema.def.format !== undefined) {
    if (schema.def.format !== 'safeint') return null;
    rule.integer = true;
  }
  for (const check of schema.def.checks ?? []) {
    const d = check._zod.def as { check: string; value?: number; inclusive?: boolean; format?: string };
    if (d.check === 'greater_than' && typeof d.value === 'number') {
      if (d.value > rule.min || (d.value === rule.min && !d.inclusive)) {
        rule.min = d.value;
        rule.minInclusive = d.inclusive === true;
      }
    } else if (d.check === 'less_than' && typeof d.value === 'number') {
      if (d.value < rule.max || (d.value === rule.max && !d.inclusive)) {
        rule.max = d.value;
        rule.maxInclusive = d.inclusive === true;
      }
    } else if (d.check === 'number_format' && d.format === 'safeint') {
      rule.integer = true;
    } else {
      return null;
    }
  }
  return rule;
}

function numberFits(v: unknown, rule: NumberRule): boolean {
  if (typeof v !== 'number' || !Number.isFinite(v)) return false;
  if (rule.integer && !Number.isSafeInteger(v)) return false;
  if (rule.minInclusive ? v < rule.min : v <= rule.min) return false;
  return rule.maxInclusive ? v <= rule.max : v < rule.max;
}

/** True only when every element fits the plan exactly (no other keys, every rule met). */
function datapointsAreValid(datapoints: readonly unknown[], plan: DatapointPlan): boolean {
  if (datapoints.length > plan.maxLength) return false;
  const { timestamp, temperature, humidity } = plan;
  for (let i = 0; i < datapoints.length; i++) {
    const d = datapoints[i];
    if (!isPlainObject(d)) return false;
    let keys = 0;
    for (const k in d) {
      if (k !== 'timestamp' && k !== 'temperature' && k !== 'humidity') return false;
      keys++;
    }
    if (!numberFits(d.timestamp, timestamp) || !numberFits(d.temperature, temperature)) return false;
    if (keys === 3) {
      if (humidity === null || !numberFits(d.humidity, humidity)) return false;
    } else if (keys !== 2) {
      return false;
    }
  }
  return true;
}
