/**
 * Between the domain and the row: a bundle report becomes a label_reports row with its sense
 * figures computed once, and a row gives back the inputs the engine needs.
 */
import { createHash } from 'node:crypto';
import type { AccessRow, CompanyStateRow, CustomFieldRow } from '../db/report-store';
import type { ReportRow, SenseColumns } from '../db/report-rows';
import { encodeDatapoints } from '../db/datapoint-codec';
import type { BundleReport } from '../schema/bundle';
import type { AlertsConfig, Limits, SenseConfig, Trim } from '../schema/sense';
import { columnsFromDatapoints, computeSense, toTimeline, type DatapointColumns, type SenseResult } from '../sense';

/** What the engine needs from a stored report besides its datapoints. */
export interface SenseSettings {
  senseConfig: SenseConfig;
  alertsConfig: AlertsConfig | null;
  numberOfTaps: number;
  trim: Trim | null;
  reported: { currentTime?: number; numberOfDatapointsAvailable?: number; numberOfMeasurementsOccurred?: number };
}

export interface ReportRecord {
  row: ReportRow;
  access: AccessRow[];
  states: CompanyStateRow[];
  customFields: CustomFieldRow[];
}

export function recordFromBundle(report: BundleReport): ReportRecord {
  const raw = columnsFromDatapoints(report.reportedSenseData.datapoints);
  const { reportedSenseData: reported, senseConfig } = report;
  const settings: SenseSettings = {
    senseConfig,
    alertsConfig: report.alertsConfig ?? null,
    numberOfTaps: report.numberOfTaps,
    trim: report.trim ?? null,
    reported: {
      currentTime: reported.currentTime,
      numberOfDatapointsAvailable: reported.numberOfDatapointsAvailable,
      numberOfMeasurementsOccurred: reported.numberOfMeasurementsOccurred,
    },
  };
  const row: ReportRow = {
    id: report.id,
    created: report.created,
    updated: report.updated ?? report.created,
    owner_company_id: report.companyId,
    sub_company: jsonOrNull(report.subCompany),
    user_info: jsonOrNull(report.user),
    label_preset: jsonOrNull(report.labelPreset),
    label_uid: report.label.uid,
    label_sequence_code: report.label.sequenceCode,
    label_type: report.label.type,
    label_name: report.label.name,
    firmware_version: report.label.firmwareVersionInfo.firmwareVersion,
    firmware_api_version: report.label.firmwareVersionInfo.firmwareApiVersion,
    battery_life_days: report.label.batteryLifeDays ?? null,
    mode: report.mode,
    type: report.type,
    status: report.status,
    label_reference: report.labelReference ?? '',
    interval: senseConfig.interval,
    config_time: senseConfig.configTime,
    start_delay: senseConfig.startDelay,
    running_time: senseConfig.runningTime,
    ...limitColumns(senseConfig.limits),
    alerts_config: jsonOrNull(report.alertsConfig),
    number_of_taps: report.numberOfTaps,
    data_is_incomplete: report.dataIsIncomplete ? 1 : 0,
    reported_current_time: reported.currentTime ?? null,
    reported_available: reported.numberOfDatapointsAvailable ?? null,
    reported_measurements: reported.numberOfMeasurementsOccurred ?? null,
    datapoints: encodeDatapoints(raw),
    trim_start: report.trim?.startTime ?? null,
    trim_end: report.trim?.endTime ?? null,
    ...senseColumns(computeSense({ ...settings, timeline: toTimeline(raw) })),
  };
  const access: AccessRow[] = [
    { id: accessId(report.id, report.companyId), label_report_id: report.id, company_id: report.companyId, role: 'owner' },
    ...(report.access ?? []).map((a) => ({
      id: accessId(report.id, a.companyId),
      label_report_id: report.id,
      company_id: a.companyId,
      role: a.role,
    })),
  ];
  const states = (report.companyState ?? []).map((s) => ({
    company_id: s.companyId,
    label_report_id: report.id,
    has_flag: s.hasFlag ? 1 : 0,
    is_archived: s.isArchived ? 1 : 0,
  }));
  const customFields = (report.customFields ?? []).map((f) => ({
    label_report_id: report.id,
    custom_field_id: f.customFieldId,
    value: JSON.stringify(f.value),
  }));
  return { row, access, states, customFields };
}

export function limitColumns(limits: Limits): Pick<ReportRow, 'min_temperature' | 'max_temperature' | 'min_humidity' | 'max_humidity'> {
  return {
    min_temperature: limits.minTemperature,
    max_temperature: limits.maxTemperature,
    min_humidity: limits.minHumidity ?? null,
    max_humidity: limits.maxHumidity ?? null,
  };
}

export function senseColumns(result: SenseResult): SenseColumns {
  return {
    calculated: JSON.stringify(result.calculated),
    trimmed: result.trimmed === null ? null : JSON.stringify(result.trimmed),
    minimal: JSON.stringify(result.minimal),
    alert_level: result.alert.level,
    alert_timestamp: result.alert.timestamp,
  };
}

/** Recomputes the stored figures from raw datapoints, e.g. after limits or the trim changed. */
export function recalculate(raw: DatapointColumns, settings: SenseSettings): SenseColumns {
  return senseColumns(computeSense({ ...settings, timeline: toTimeline(raw) }));
}

type SenseSettingsRow = Pick<
  ReportRow,
  | 'min_temperature' | 'max_temperature' | 'min_humidity' | 'max_humidity' | 'interval' | 'config_time'
  | 'start_delay' | 'running_time' | 'alerts_config' | 'number_of_taps' | 'trim_start' | 'trim_end'
  | 'reported_current_time' | 'reported_available' | 'reported_measurements'
>;

export function senseConfigOf(row: Pick<ReportRow, SenseConfigColumn>): SenseConfig {
  const limits: Limits = { minTemperature: row.min_temperature, maxTemperature: row.max_temperature };
  if (row.min_humidity !== null) limits.minHumidity = row.min_humidity;
  if (row.max_humidity !== null) limits.maxHumidity = row.max_humidity;
  return {
    limits,
    interval: row.interval,
    configTime: row.config_time,
    startDelay: row.start_delay,
    runningTime: row.running_time,
  };
}
type SenseConfigColumn =
  | 'min_temperature' | 'max_temperature' | 'min_humidity' | 'max_humidity' | 'interval' | 'config_time'
  | 'start_delay' | 'running_time';

/** The label as the row holds it; views add what is theirs (battery estimate or life). */
export function labelOf(
  row: Pick<ReportRow, 'label_uid' | 'label_sequence_code' | 'label_type' | 'label_name' | 'firmware_version' | 'firmware_api_version'>,
) {
  return {
    uid: row.label_uid,
    sequenceCode: row.label_sequence_code,
    type: row.label_type,
    name: row.label_name,
    firmwareVersionInfo: { firmwareVersion: row.firmware_version, firmwareApiVersion: row.firmware_api_version },
  };
}

export function trimOf(row: Pick<ReportRow, 'trim_start' | 'trim_end'>): Trim | null {
  return row.trim_start === null || row.trim_end === null ? null : { startTime: row.trim_start, endTime: row.trim_end };
}

export function senseSettingsOf(row: SenseSettingsRow): SenseSettings {
  return {
    senseConfig: senseConfigOf(row),
    alertsConfig: row.alerts_config === null ? null : (JSON.parse(row.alerts_config) as AlertsConfig),
    numberOfTaps: row.number_of_taps,
    trim: trimOf(row),
    reported: reportedCountersOf(row),
  };
}

export function reportedCountersOf(
  row: Pick<ReportRow, 'reported_current_time' | 'reported_available' | 'reported_measurements'>,
): SenseSettings['reported'] {
  const reported: SenseSettings['reported'] = {};
  if (row.reported_current_time !== null) reported.currentTime = row.reported_current_time;
  if (row.reported_available !== null) reported.numberOfDatapointsAvailable = row.reported_available;
  if (row.reported_measurements !== null) reported.numberOfMeasurementsOccurred = row.reported_measurements;
  return reported;
}

/** Access ids are derived, so an export imported again yields the very same entries. */
export function accessId(reportId: string, companyId: string): string {
  const h = createHash('sha256').update(`access\0${reportId}\0${companyId}`).digest('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-5${h.slice(13, 16)}-a${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

function jsonOrNull(value: unknown): string | null {
  return value === undefined || value === null ? null : JSON.stringify(value);
}
