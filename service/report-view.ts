/**
 * Domain reports to the shapes the API shows (docs/api.md#shapes), as one company sees them.
 * Key order follows the documents so that a person reading a response finds what the
 * interface lists, where it lists it.
 */
import { decodeDatapoints } from '../model/datapoint-codec';
import { stateOf, type Report } from '../model/report';
import type { AccessEntry, Company, CustomField, LabelReport, ListedLabelReport } from '../schema/report';
import type { CalculatedSenseData, ReportedSenseData } from '../schema/sense';
import { estimatedBatteryDaysLeft, toTimeline, trimTimeline } from '../sense';
import { materialize, type ReportDocument } from './report-json';

/** The full report as `viewerId`'s company sees it (its own flags), its datapoint lists still as columns. */
export function fullReportDocument(report: Report, viewerId: string, owner: Company, nowSeconds: number): ReportDocument {
  const raw = decodeDatapoints(report.datapoints);
  const timeline = toTimeline(raw);
  const { trim, figures, label } = report;
  const trimmedTimeline = trim === null || figures.trimmed === null ? null : trimTimeline(timeline, trim);
  const reported: ReportedSenseData = { datapoints: [], ...report.reported };
  const calculated: CalculatedSenseData = { datapoints: [], ...figures.calculated };
  const trimmed: CalculatedSenseData | null = trimmedTimeline === null ? null : { datapoints: [], ...figures.trimmed! };
  const state = stateOf(report, viewerId);
  const document: LabelReport = {
    id: report.id,
    created: report.created,
    updated: report.updated,
    company: owner,
    subCompany: report.subCompany,
    user: report.user,
    label: {
      uid: label.uid,
      sequenceCode: label.sequenceCode,
      type: label.type,
      name: label.name,
      firmwareVersionInfo: label.firmwareVersionInfo,
      estimatedBatteryDaysLeft: estimatedBatteryDaysLeft(report.senseConfig.configTime, nowSeconds, label.batteryLifeDays ?? undefined),
    },
    mode: report.mode,
    type: report.type,
    status: report.status,
    labelReference: report.labelReference,
    senseConfig: report.senseConfig,
    alertsConfig: report.alertsConfig,
    labelPreset: report.labelPreset,
    hasFlag: state.hasFlag,
    isArchived: state.isArchived,
    numberOfTaps: report.numberOfTaps,
    dataIsIncomplete: report.dataIsIncomplete,
    reportedSenseData: reported,
    calculatedSenseData: calculated,
    trimmedSenseData: trimmed,
    alert: figures.alert,
    customFields: customFieldsOf(report),
    access: report.access.map((a) => accessEntry(report.id, a)),
  };
  return { report: document, datapoints: { reported: raw, calculated: timeline, trimmed: trimmedTimeline } };
}

/** A list element (output=normal): the full shape with the label reduced. */
export function listedReport(report: Report, viewerId: string, owner: Company): ListedLabelReport {
  const full = materialize(fullReportDocument(report, viewerId, owner, 0));
  return { ...full, label: { uid: report.label.uid, sequenceCode: report.label.sequenceCode } };
}

export function accessEntry(reportId: string, a: Report['access'][number]): AccessEntry {
  return { id: a.id, companyId: a.companyId, labelReportId: reportId, role: a.role };
}

export function customFieldsOf(report: Pick<Report, 'customFields'>): CustomField[] | null {
  return report.customFields.length === 0 ? null : report.customFields.map((f) => ({ customFieldId: f.customFieldId, value: f.value }));
}
