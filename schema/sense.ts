/**
 * Shapes of a report's sense data: its configuration, raw datapoints and the figures
 * calculated from them. One source of truth, shared by the engine, the service, the
 * renderer and the tests.
 */
import { z } from 'zod';

/** Epoch seconds; an integer that fits a double exactly. */
export const epochSeconds = z.int();

/**
 * The physical range of what a label measures, for readings and limits alike: no temperature
 * below absolute zero, none above 1 000 °C, humidity 0–100 %RH. Bounded inputs keep every
 * calculated figure finite (a limit of 1e308 would overflow degreeHour to Infinity).
 */
export const TEMPERATURE_RANGE = { min: -273.15, max: 1000 } as const;
export const HUMIDITY_RANGE = { min: 0, max: 100 } as const;

/** Temperature in °C. zod's number rejects NaN and ±Infinity. */
const celsius = (what: string) =>
  z
    .number()
    .min(TEMPERATURE_RANGE.min, `${what} cannot be below absolute zero (${TEMPERATURE_RANGE.min} °C)`)
    .max(TEMPERATURE_RANGE.max, `${what} cannot be above ${TEMPERATURE_RANGE.max} °C`);

/** Relative humidity in %RH. */
const relativeHumidity = (what: string) =>
  z
    .number()
    .min(HUMIDITY_RANGE.min, `${what} cannot be below ${HUMIDITY_RANGE.min} %RH`)
    .max(HUMIDITY_RANGE.max, `${what} cannot be above ${HUMIDITY_RANGE.max} %RH`);

export const limitsSchema = z.strictObject({
  minTemperature: celsius('a temperature limit'),
  maxTemperature: celsius('a temperature limit'),
  minHumidity: relativeHumidity('a humidity limit').optional(),
  maxHumidity: relativeHumidity('a humidity limit').optional(),
});
export type Limits = z.infer<typeof limitsSchema>;

export const senseConfigSchema = z.strictObject({
  limits: limitsSchema,
  interval: z.int().positive(),
  configTime: epochSeconds,
  startDelay: z.int().nonnegative(),
  runningTime: z.int().nonnegative(),
});
export type SenseConfig = z.infer<typeof senseConfigSchema>;

export const alertRuleSchema = z.strictObject({
  level: z.int().min(1).max(2),
  kind: z.enum(['cumulative', 'singleEvent']),
  seconds: z.number().nonnegative(),
});
export type AlertRule = z.infer<typeof alertRuleSchema>;

export const alertsConfigSchema = z.strictObject({
  rules: z.array(alertRuleSchema).max(100),
});
export type AlertsConfig = z.infer<typeof alertsConfigSchema>;

export const DEFAULT_ALERT_RULES: readonly Readonly<AlertRule>[] = Object.freeze([
  Object.freeze({ level: 1, kind: 'cumulative', seconds: 0 } as const),
  Object.freeze({ level: 2, kind: 'cumulative', seconds: 3600 } as const),
]);

export const trimSchema = z
  .strictObject({ startTime: epochSeconds, endTime: epochSeconds })
  .refine((t) => t.startTime <= t.endTime, { message: 'trim.startTime must not be after trim.endTime' });
export type Trim = z.infer<typeof trimSchema>;

export const datapointSchema = z.strictObject({
  timestamp: epochSeconds,
  temperature: celsius('a temperature'),
  humidity: relativeHumidity('a humidity').optional(),
});
export type Datapoint = z.infer<typeof datapointSchema>;

/** The most datapoints one report holds, however they came in (a bundle, or taps added up). */
export const MAX_DATAPOINTS = 1_000_000;

export const reportedSenseDataSchema = z.strictObject({
  datapoints: z.array(datapointSchema).max(MAX_DATAPOINTS, 'a report holds at most 1 000 000 datapoints'),
  currentTime: epochSeconds.optional(),
  numberOfDatapointsAvailable: z.int().nonnegative().optional(),
  numberOfMeasurementsOccurred: z.int().nonnegative().optional(),
});
export type ReportedSenseData = z.infer<typeof reportedSenseDataSchema>;

const count = z.int().nonnegative();
const violationCounts = z.object({ temperature: count, humidity: count, all: count });
export type ViolationCounts = z.infer<typeof violationCounts>;

export const calculatedSenseDataSchema = z.object({
  datapoints: z.array(datapointSchema),
  numberOfDatapointsAvailable: count,
  numberOfDatapointsRead: count,
  numberOfMeasurementsOccurred: count,
  attainedValues: z.object({
    minTemperature: z.number().nullable(),
    maxTemperature: z.number().nullable(),
    minHumidity: z.number().optional(),
    maxHumidity: z.number().optional(),
  }),
  startTime: z.int(),
  elapsedTime: z.int(),
  elapsedTimeFromConfig: z.int(),
  preciseElapsedTime: z.int(),
  preciseElapsedTimeFromConfig: z.int(),
  preciseInterval: z.number(),
  currentTime: z.int(),
  startDelay: z.int(),
  numberOfViolations: violationCounts,
  durationOfViolations: violationCounts,
  analysedValues: z.object({
    temperature: z.object({
      average: z.number().nullable(),
      degreeHour: z.number(),
      meanKineticTemperature: z.number().nullable(),
    }),
  }),
});
export type CalculatedSenseData = z.infer<typeof calculatedSenseDataSchema>;
/** The calculated figures without the datapoint list, which is rebuilt from storage on output. */
export type SenseFigures = Omit<CalculatedSenseData, 'datapoints'>;

export const minimalSenseDataSchema = z.object({
  flattenedDatapoints: z.array(z.union([z.literal(0), z.literal(1)])).max(50),
  numberOfDatapointsAvailable: count,
  numberOfDatapointsRead: count,
  numberOfMeasurementsOccurred: count,
  numberOfViolations: violationCounts,
});
export type MinimalSenseData = z.infer<typeof minimalSenseDataSchema>;

/** -1: no taps yet, 0: none, 1: moderate, 2: critical. */
export const alertSchema = z.object({ level: z.int().min(-1).max(2), timestamp: z.int() });
export type Alert = z.infer<typeof alertSchema>;
