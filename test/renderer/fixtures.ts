/** A full report as the API returns it, for tests of pure renderer helpers. */
import { labelReportSchema } from '../../schema/report';
import type { LabelReport } from '../../schema/report';
import type { Datapoint } from '../../schema/sense';

export function sampleReport(datapoints: Datapoint[], overrides: Partial<LabelReport> = {}): LabelReport {
  const figures = {
    datapoints,
    numberOfDatapointsAvailable: datapoints.length,
    numberOfDatapointsRead: datapoints.length,
    numberOfMeasurementsOccurred: datapoints.length,
    attainedValues: { minTemperature: null, maxTemperature: null },
    startTime: 1_700_000_000,
    elapsedTime: 0,
    elapsedTimeFromConfig: 0,
    preciseElapsedTime: 0,
    preciseElapsedTimeFromConfig: 0,
    preciseInterval: 600,
    currentTime: 1_700_000_000,
    startDelay: 0,
    numberOfViolations: { temperature: 0, humidity: 0, all: 0 },
    durationOfViolations: { temperature: 0, humidity: 0, all: 0 },
    analysedValues: { temperature: { average: null, degreeHour: 0, meanKineticTemperature: null } },
  };
  return labelReportSchema.parse({
    id: 'r1',
    created: '2026-01-01T00:00:00.000Z',
    updated: '2026-01-01T00:00:00.000Z',
    company: { id: 'acme', name: 'ACME Pharma', shortCode: 'ACM' },
    subCompany: null,
    user: null,
    label: { uid: 'U1', sequenceCode: 'SEQ1', type: 't', name: 'n', firmwareVersionInfo: { firmwareVersion: '1', firmwareApiVersion: '1' } },
    mode: 'roadTransport',
    type: 'tempSense',
    status: 'active',
    labelReference: 'PO-1',
    senseConfig: { limits: { minTemperature: 2, maxTemperature: 8 }, interval: 600, configTime: 1_700_000_000, startDelay: 0, runningTime: 0 },
    alertsConfig: null,
    labelPreset: null,
    hasFlag: false,
    isArchived: false,
    numberOfTaps: 1,
    dataIsIncomplete: false,
    reportedSenseData: { datapoints },
    calculatedSenseData: figures,
    trimmedSenseData: null,
    alert: { level: 0, timestamp: 0 },
    customFields: null,
    access: [
      { id: 'a1', companyId: 'acme', labelReportId: 'r1', role: 'owner' },
      { id: 'a2', companyId: 'nordic', labelReportId: 'r1', role: 'editor' },
      { id: 'a3', companyId: 'fresh', labelReportId: 'r1', role: 'viewer' },
    ],
    ...overrides,
  });
}

/** Datapoints every 600 s from t0 with the given temperatures. */
export function readings(temps: number[], t0 = 1_700_000_000, humidity?: number[]): Datapoint[] {
  return temps.map((temperature, i) => ({
    timestamp: t0 + i * 600,
    temperature,
    ...(humidity ? { humidity: humidity[i] } : {}),
  }));
}
