/**
 * Rows to the shapes the API shows (decisions §3 "Shapes"). Key order follows the documents so
 * that a person reading a response finds what the interface lists, where it lists it.
 */
import type { MinimalReportRow, VisibleReportRow } from '../db/report-rows';
import type { AccessRow, CustomFieldRow } from '../db/report-store';
import { decodeDatapoints } from '../db/datapoint-codec';
import type {
  AccessEntry,
  CustomField,
  LabelReport,
  ListedLabelReport,
  MinimalLabelReport,
  Mode,
  ReportType,
  Status,
} from '../schema/report';
import type { AlertsConfig, CalculatedSenseData, MinimalSenseData, ReportedSenseData, SenseFigures } from '../schema/sense';
import { estimatedBatteryDaysLeft, toTimeline, trimTimeline } from '../sense';
import { labelOf, reportedCountersOf, senseConfigOf, trimOf } from './report-record';
import { materialize, type ReportDocument } from './report-json';

/** The full report (decisions §3 "Shapes"), its datapoint lists still as columns. */
export function fullReportDocument(
  row: VisibleReportRow,
  access: readonly AccessRow[],
  fields: readonly CustomFieldRow[] | undefined,
  nowSeconds: number,
): ReportDocument {
  const raw = decodeDatapoints(row.datapoints);
  const timeline = toTimeline(raw);
  const trim = trimOf(row);
  const trimmedTimeline = trim === null || row.trimmed === null ? null : trimTimeline(timeline, trim);
  const reported: ReportedSenseData = { datapoints: [], ...reportedCountersOf(row) };
  const calculated: CalculatedSenseData = { datapoints: [], ...(JSON.parse(row.calculated) as SenseFigures) };
  const trimmed: CalculatedSenseData | null =
    trimmedTimeline === null ? null : { datapoints: [], ...(JSON.parse(row.trimmed!) as SenseFigures) };
  const senseConfig = senseConfigOf(row);
  const report: LabelReport = {
    id: row.id,
    created: row.created,
    updated: row.updated,
    company: companyOf(row),
    subCompany: parseJson(row.sub_company),
    user: parseJson(row.user_info),
    label: {
      ...labelOf(row),
      estimatedBatteryDaysLeft: estimatedBatteryDaysLeft(senseConfig.configTime, nowSeconds, row.battery_life_days ?? undefined),
    },
    mode: row.mode as Mode,
    type: row.type as ReportType,
    status: row.status as Status,
    labelReference: row.label_reference,
    senseConfig,
    alertsConfig: parseJson<AlertsConfig>(row.alerts_config),
    labelPreset: parseJson(row.label_preset),
    hasFlag: row.has_flag === 1,
    isArchived: row.is_archived === 1,
    numberOfTaps: row.number_of_taps,
    dataIsIncomplete: row.data_is_incomplete === 1,
    reportedSenseData: reported,
    calculatedSenseData: calculated,
    trimmedSenseData: trimmed,
    alert: { level: row.alert_level, timestamp: row.alert_timestamp },
    customFields: customFieldsOf(fields),
    access: access.map(accessEntry),
  };
  return { report, datapoints: { reported: raw, calculated: timeline, trimmed: trimmedTimeline } };
}

export function fullReport(
  row: VisibleReportRow,
  access: readonly AccessRow[],
  fields: readonly CustomFieldRow[] | undefined,
  nowSeconds: number,
): LabelReport {
  return materialize(fullReportDocument(row, access, fields, nowSeconds));
}

/** A list element (output=normal): the full shape with the label reduced. */
export function listedReport(
  row: VisibleReportRow,
  access: readonly AccessRow[],
  fields: readonly CustomFieldRow[] | undefined,
): ListedLabelReport {
  const full = fullReport(row, access, fields, 0);
  return { ...full, label: { uid: row.label_uid, sequenceCode: row.label_sequence_code } };
}

export function minimalReport(row: MinimalReportRow): MinimalLabelReport {
  return {
    id: row.id,
    created: row.created,
    updated: row.updated,
    company: companyOf(row),
    subCompany: parseJson(row.sub_company),
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

function companyOf(row: Pick<MinimalReportRow, 'owner_company_id' | 'company_name' | 'company_short_code'>) {
  return { id: row.owner_company_id, name: row.company_name, shortCode: row.company_short_code };
}

export function accessEntry(row: AccessRow): AccessEntry {
  return { id: row.id, companyId: row.company_id, labelReportId: row.label_report_id, role: row.role };
}

export function customFieldsOf(rows: readonly CustomFieldRow[] | undefined): CustomField[] | null {
  if (!rows || rows.length === 0) return null;
  return rows.map((r) => ({ customFieldId: r.custom_field_id, value: JSON.parse(r.value) as CustomField['value'] }));
}

function parseJson<T = Record<string, unknown>>(text: string | null): T | null {
  return text === null ? null : (JSON.parse(text) as T);
}
