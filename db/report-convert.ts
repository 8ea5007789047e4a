/**
 * Rows to domain values and back, at the boundary of `db/` (as Actual's convertFromSelect and
 * convertForInsert): snake_case columns, 0/1 flags and JSON text stay below it.
 */
import type { Report, ReportAccess } from '../model/report';
import type { ReportTableRecord } from '../model/report-table';
import type { MinimalLabelReport, Mode, ReportType, Status } from '../schema/report';
import type { AlertsConfig, Limits, MinimalSenseData, SenseFigures } from '../schema/sense';
import type { ReportedCounters } from '../sense';
import type { MinimalReportRow, ReportRow } from './report-rows';
import type { AccessRow, CompanyStateRow, CustomFieldRow, ReportTableRow, StoredReport } from './report-store';

export function reportFromRows({ row, access, states, customFields }: StoredReport): Report {
  return {
    id: row.id,
    created: row.created,
    updated: row.updated,
    ownerCompanyId: row.owner_company_id,
    subCompany: parsed(row.sub_company),
    user: parsed(row.user_info),
    labelPreset: parsed(row.label_preset),
    label: {
      uid: row.label_uid,
      sequenceCode: row.label_sequence_code,
      type: row.label_type,
      name: row.label_name,
      firmwareVersionInfo: { firmwareVersion: row.firmware_version, firmwareApiVersion: row.firmware_api_version },
      batteryLifeDays: row.battery_life_days,
    },
    mode: row.mode as Mode,
    type: row.type as ReportType,
    status: row.status as Status,
    labelReference: row.label_reference,
    senseConfig: senseConfigOf(row),
    alertsConfig: parsed<AlertsConfig>(row.alerts_config),
    numberOfTaps: row.number_of_taps,
    dataIsIncomplete: row.data_is_incomplete === 1,
    reported: reportedOf(row),
    datapoints: row.datapoints,
    trim: row.trim_start === null || row.trim_end === null ? null : { startTime: row.trim_start, endTime: row.trim_end },
    figures: {
      calculated: JSON.parse(row.calculated) as SenseFigures,
      trimmed: parsed<SenseFigures>(row.trimmed),
      minimal: JSON.parse(row.minimal) as MinimalSenseData,
      alert: { level: row.alert_level, timestamp: row.alert_timestamp },
    },
    access: access.map(accessOf),
    states: states.map((s) => ({ companyId: s.company_id, hasFlag: s.has_flag === 1, isArchived: s.is_archived === 1 })),
    customFields: customFields.map((f) => ({ customFieldId: f.custom_field_id, value: JSON.parse(f.value) })),
  };
}

export function rowsFromReport(r: Report): StoredReport {
  const { limits } = r.senseConfig;
  const row: ReportRow = {
    id: r.id,
    created: r.created,
    updated: r.updated,
    owner_company_id: r.ownerCompanyId,
    sub_company: jsonOrNull(r.subCompany),
    user_info: jsonOrNull(r.user),
    label_preset: jsonOrNull(r.labelPreset),
    label_uid: r.label.uid,
    label_sequence_code: r.label.sequenceCode,
    label_type: r.label.type,
    label_name: r.label.name,
    firmware_version: r.label.firmwareVersionInfo.firmwareVersion,
    firmware_api_version: r.label.firmwareVersionInfo.firmwareApiVersion,
    battery_life_days: r.label.batteryLifeDays,
    mode: r.mode,
    type: r.type,
    status: r.status,
    label_reference: r.labelReference,
    interval: r.senseConfig.interval,
    config_time: r.senseConfig.configTime,
    start_delay: r.senseConfig.startDelay,
    running_time: r.senseConfig.runningTime,
    min_temperature: limits.minTemperature,
    max_temperature: limits.maxTemperature,
    min_humidity: limits.minHumidity ?? null,
    max_humidity: limits.maxHumidity ?? null,
    alerts_config: jsonOrNull(r.alertsConfig),
    number_of_taps: r.numberOfTaps,
    data_is_incomplete: r.dataIsIncomplete ? 1 : 0,
    reported_current_time: r.reported.currentTime ?? null,
    reported_available: r.reported.numberOfDatapointsAvailable ?? null,
    reported_measurements: r.reported.numberOfMeasurementsOccurred ?? null,
    datapoints: r.datapoints,
    trim_start: r.trim?.startTime ?? null,
    trim_end: r.trim?.endTime ?? null,
    calculated: JSON.stringify(r.figures.calculated),
    trimmed: jsonOrNull(r.figures.trimmed),
    minimal: JSON.stringify(r.figures.minimal),
    alert_level: r.figures.alert.level,
    alert_timestamp: r.figures.alert.timestamp,
  };
  return {
    row,
    access: r.access.map((a) => ({ id: a.id, label_report_id: r.id, company_id: a.companyId, role: a.role })),
    states: r.states.map((s) => ({ company_id: s.companyId, label_report_id: r.id, has_flag: s.hasFlag ? 1 : 0, is_archived: s.isArchived ? 1 : 0 })),
    customFields: r.customFields.map((f) => ({ label_report_id: r.id, custom_field_id: f.customFieldId, value: JSON.stringify(f.value) })),
  };
}

export function accessOf(row: AccessRow): ReportAccess {
  return { id: row.id, companyId: row.company_id, role: row.role };
}

/** A list element of the minimal output, as the caller's company sees it. */
export function minimalFromRow(row: MinimalReportRow): MinimalLabelReport {
  return {
    id: row.id,
    created: row.created,
    updated: row.updated,
    company: { id: row.owner_company_id, name: row.company_name, shortCode: row.company_short_code },
    subCompany: parsed(row.sub_company),
    label: { uid: row.label_uid, sequenceCode: row.label_sequence_code },
    mode: row.mode as Mode,
    type: row.type as ReportType,
    status: row.status as Status,
    labelReference: row.label_reference,
    senseConfig: senseConfigOf(row),
    hasFlag: row.has_flag === 1,
    isArchived: row.is_archived === 1,
    numberOfTaps: row.number_of_taps,
    minimalSenseData: JSON.parse(row.minimal) as MinimalSenseData,
    alert: { level: row.alert_level, timestamp: row.alert_timestamp },
  };
}

export function tableEntryFromRow(row: ReportTableRow): Omit<ReportTableRecord, 'decision'> {
  return {
    id: row.id,
    labelReference: row.label_reference,
    labelUid: row.label_uid,
    labelName: row.label_name,
    status: row.status,
    alertLevel: row.alert_level,
    created: row.created,
    updated: row.updated,
    hasFlag: row.has_flag === 1,
    isArchived: row.is_archived === 1,
    ownerCompanyName: row.company_name,
    excursions: row.excursions ?? 0,
    excursionSeconds: row.excursion_seconds ?? 0,
    degreeHours: row.degree_hours ?? 0,
  };
}

type SenseConfigColumns = Pick<
  ReportRow,
  'min_temperature' | 'max_temperature' | 'min_humidity' | 'max_humidity' | 'interval' | 'config_time' | 'start_delay' | 'running_time'
>;

function senseConfigOf(row: SenseConfigColumns) {
  const limits: Limits = { minTemperature: row.min_temperature, maxTemperature: row.max_temperature };
  if (row.min_humidity !== null) limits.minHumidity = row.min_humidity;
  if (row.max_humidity !== null) limits.maxHumidity = row.max_humidity;
  return { limits, interval: row.interval, configTime: row.config_time, startDelay: row.start_delay, runningTime: row.running_time };
}

function reportedOf(row: Pick<ReportRow, 'reported_current_time' | 'reported_available' | 'reported_measurements'>): ReportedCounters {
  const reported: ReportedCounters = {};
  if (row.reported_current_time !== null) reported.currentTime = row.reported_current_time;
  if (row.reported_available !== null) reported.numberOfDatapointsAvailable = row.reported_available;
  if (row.reported_measurements !== null) reported.numberOfMeasurementsOccurred = row.reported_measurements;
  return reported;
}

function parsed<T = Record<string, unknown>>(text: string | null): T | null {
  return text === null ? null : (JSON.parse(text) as T);
}

function jsonOrNull(value: unknown): string | null {
  return value === undefined || value === null ? null : JSON.stringify(value);
}
