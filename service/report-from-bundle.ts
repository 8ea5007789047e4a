/**
 * A bundle report (import, demo, activation, a mirrored report) as a domain report, with its
 * sense figures computed once.
 */
import { createHash } from 'node:crypto';
import { encodeDatapoints } from '../model/datapoint-codec';
import type { Report } from '../model/report';
import { withFigures } from '../model/report-figures';
import type { BundleReport } from '../schema/bundle';
import { columnsFromDatapoints } from '../sense';

export function reportFromBundle(report: BundleReport): Report {
  const { reportedSenseData: reported, senseConfig, label } = report;
  const counters: Report['reported'] = {};
  if (reported.currentTime !== undefined) counters.currentTime = reported.currentTime;
  if (reported.numberOfDatapointsAvailable !== undefined) counters.numberOfDatapointsAvailable = reported.numberOfDatapointsAvailable;
  if (reported.numberOfMeasurementsOccurred !== undefined) counters.numberOfMeasurementsOccurred = reported.numberOfMeasurementsOccurred;
  const limits = { ...senseConfig.limits };
  // An unset humidity limit is absent, as the database gives it back.
  if (limits.minHumidity === undefined) delete limits.minHumidity;
  if (limits.maxHumidity === undefined) delete limits.maxHumidity;
  return withFigures({
    id: report.id,
    created: report.created,
    updated: report.updated ?? report.created,
    ownerCompanyId: report.companyId,
    subCompany: report.subCompany ?? null,
    user: report.user ?? null,
    labelPreset: report.labelPreset ?? null,
    label: {
      uid: label.uid,
      sequenceCode: label.sequenceCode,
      type: label.type,
      name: label.name,
      firmwareVersionInfo: {
        firmwareVersion: label.firmwareVersionInfo.firmwareVersion,
        firmwareApiVersion: label.firmwareVersionInfo.firmwareApiVersion,
      },
      batteryLifeDays: label.batteryLifeDays ?? null,
    },
    mode: report.mode,
    type: report.type,
    status: report.status,
    labelReference: report.labelReference ?? '',
    senseConfig: {
      limits,
      interval: senseConfig.interval,
      configTime: senseConfig.configTime,
      startDelay: senseConfig.startDelay,
      runningTime: senseConfig.runningTime,
    },
    alertsConfig: report.alertsConfig ?? null,
    numberOfTaps: report.numberOfTaps,
    dataIsIncomplete: report.dataIsIncomplete ?? false,
    reported: counters,
    datapoints: encodeDatapoints(columnsFromDatapoints(reported.datapoints)),
    trim: report.trim ?? null,
    access: [
      { id: accessId(report.id, report.companyId), companyId: report.companyId, role: 'owner' },
      ...(report.access ?? []).map((a) => ({ id: accessId(report.id, a.companyId), companyId: a.companyId, role: a.role })),
    ],
    states: (report.companyState ?? []).map((s) => ({ companyId: s.companyId, hasFlag: s.hasFlag, isArchived: s.isArchived })),
    customFields: (report.customFields ?? []).map((f) => ({ customFieldId: f.customFieldId, value: f.value })),
  });
}


/** Access ids are derived, so an export imported again yields the very same entries. */
export function accessId(reportId: string, companyId: string): string {
  const h = createHash('sha256').update(`access\0${reportId}\0${companyId}`).digest('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-5${h.slice(13, 16)}-a${h.slice(17, 20)}-${h.slice(20, 32)}`;
}
