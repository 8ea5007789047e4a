/**
 * A remote's report as a mirrored one (docs/sync.md#what-the-mirror-holds): everything as the
 * remote shows it, its figures included (the vendor's engine may round or count otherwise than
 * this desk's, and a desk must show the same alert as the cloud), and the inputs the remote
 * does not show derived from what it shows, so that a local recalculation starts from the same
 * facts.
 */
import { describeZodError } from '../contract/zod-messages';
import { remoteDatapointSchema, type RemoteReport } from '../schema/sync';
import type { BundleReport } from '../schema/bundle';
import type { Datapoint, SenseFigures, Trim } from '../schema/sense';
import { datapointsFromColumns, estimatedBatteryDaysLeft, type ReportedCounters } from '../sense';
import { withShownFigures } from '../model/report-figures';
import { decodeDatapoints } from '../model/datapoint-codec';
import type { Report, ReportAccess } from '../model/report';
import { accessId, reportFromBundle } from '../service/report-from-bundle';

/** A remote report sync cannot take (its datapoints do not check, or a list element of a report never fetched whole). */
export class UnusableRemoteReport extends Error {}

/**
 * `stored` is the local report of that id, if any: a list element's label keeps its stored
 * facts, and the flags of other companies than the remote key's stay as they were here.
 */
export function reportFromRemote(remote: RemoteReport, stored: Report | undefined, companyId: string, nowSeconds: number): Report {
  const storedLabel = stored && { ...stored.label, batteryLifeDays: stored.label.batteryLifeDays ?? undefined };
  const { type, name, firmwareVersionInfo, estimatedBatteryDaysLeft: daysLeft } = remote.label;
  const whole = type !== undefined && name !== undefined && firmwareVersionInfo !== undefined;
  if (!whole && !storedLabel) throw new UnusableRemoteReport('the remote did not show its label');
  const label = whole
    ? {
        uid: remote.label.uid,
        sequenceCode: remote.label.sequenceCode,
        type,
        name,
        firmwareVersionInfo,
        batteryLifeDays: batteryLife(daysLeft, remote.senseConfig.configTime, nowSeconds, storedLabel),
      }
    : { ...storedLabel!, uid: remote.label.uid, sequenceCode: remote.label.sequenceCode };

  const datapoints = rawDatapoints(remote);
  const bundle: BundleReport = {
    id: remote.id,
    created: new Date(remote.created).toISOString(),
    updated: new Date(remote.updated).toISOString(),
    companyId: remote.company.id,
    subCompany: remote.subCompany ?? null,
    user: remote.user ?? null,
    labelPreset: remote.labelPreset ?? stored?.labelPreset ?? null,
    label: { ...label, batteryLifeDays: label.batteryLifeDays ?? undefined },
    mode: remote.mode,
    type: remote.type,
    status: remote.status,
    labelReference: remote.labelReference ?? '',
    senseConfig: remote.senseConfig,
    alertsConfig: remote.alertsConfig ?? null,
    numberOfTaps: remote.numberOfTaps,
    dataIsIncomplete: remote.dataIsIncomplete ?? stored?.dataIsIncomplete === true,
    // Without counters first: what docs/figures.md gives without them tells which ones the label reported.
    reportedSenseData: { datapoints },
    trim: trimFrom(remote, datapoints, stored),
    customFields: remote.customFields ?? [],
  };
  const computed = reportFromBundle(bundle);
  const calculated = figuresShown(remote.calculatedSenseData);
  const report: Report = {
    ...computed,
    reported: reportedCounters(remote, computed.figures.calculated),
    access: accessOf(remote),
    states: [
      ...(stored?.states.filter((s) => s.companyId !== companyId) ?? []),
      { companyId, hasFlag: remote.hasFlag, isArchived: remote.isArchived },
    ],
  };
  const trimmed = remote.trimmedSenseData ? figuresShown(remote.trimmedSenseData) : null;
  return withShownFigures(report, { calculated, trimmed, alert: remote.alert });
}

/** A figures object as the remote shows it, without its datapoint list (the report's own datapoints stand for it). */
function figuresShown({ datapoints: _, ...figures }: RemoteReport['calculatedSenseData']): SenseFigures {
  return figures;
}

/**
 * The counters the label reported: as the remote shows them, else each one only where the
 * remote's calculated figures differ from what docs/figures.md gives without it (the last
 * datapoint's time, the number of datapoints read), so that trimmed figures count the trimmed
 * timeline as the remote's do.
 */
function reportedCounters(remote: RemoteReport, withoutCounters: SenseFigures): ReportedCounters {
  const shown = remote.reportedSenseData;
  const source = shown ?? remote.calculatedSenseData;
  const counters: ReportedCounters = {};
  for (const key of ['currentTime', 'numberOfDatapointsAvailable', 'numberOfMeasurementsOccurred'] as const) {
    const value = source[key];
    if (value !== undefined && (shown || value !== withoutCounters[key])) counters[key] = value;
  }
  return counters;
}

/** The stored battery life while it still gives the remote's estimate (so a fetch changes nothing), else one that does. */
function batteryLife(
  daysLeft: number | undefined,
  configTime: number,
  nowSeconds: number,
  stored: { batteryLifeDays?: number } | undefined,
): number | undefined {
  if (daysLeft === undefined) return stored?.batteryLifeDays;
  if (stored && estimatedBatteryDaysLeft(configTime, nowSeconds, stored.batteryLifeDays) === daysLeft) return stored.batteryLifeDays;
  return batteryLifeFor(daysLeft, configTime, nowSeconds);
}

/**
 * The battery life that makes the local estimate equal the remote's at `nowSeconds`: the
 * default (365 days, stored as none) when that gives it, else the middle of the days that do.
 */
export function batteryLifeFor(daysLeft: number, configTime: number, nowSeconds: number): number | undefined {
  if (estimatedBatteryDaysLeft(configTime, nowSeconds) === daysLeft) return undefined;
  const elapsedDays = (nowSeconds - configTime) / 86_400;
  return Math.max(Number.MIN_VALUE, daysLeft + elapsedDays + 0.5);
}

/** The remote's raw datapoints when it shows them, else the calculated timeline's. */
function rawDatapoints(remote: RemoteReport): Datapoint[] {
  const list = remote.reportedSenseData?.datapoints ?? remote.calculatedSenseData.datapoints;
  const datapoints: Datapoint[] = new Array(list.length);
  // Point by point, stopping at the first bad one: a million bad points must not make a million error objects.
  for (let i = 0; i < list.length; i++) {
    const parsed = remoteDatapointSchema.safeParse(list[i]);
    if (!parsed.success) throw new UnusableRemoteReport(describeZodError(parsed.error, `datapoints[${i}]`));
    datapoints[i] = parsed.data;
  }
  return datapoints;
}

/**
 * The trim: the first and last timestamps of the trimmed timeline. A trimmed timeline without
 * datapoints says only that the trim holds none: the stored trim is kept when it holds none
 * either, else one past the last datapoint stands for it.
 */
function trimFrom(remote: RemoteReport, datapoints: readonly Datapoint[], stored: Report | undefined): Trim | null {
  const trimmed = remote.trimmedSenseData;
  if (trimmed === null || trimmed === undefined) return null;
  let startTime = Infinity;
  let endTime = -Infinity;
  for (const d of trimmed.datapoints) {
    const t = (d as { timestamp?: unknown }).timestamp;
    if (typeof t !== 'number' || !Number.isInteger(t)) continue;
    if (t < startTime) startTime = t;
    if (t > endTime) endTime = t;
  }
  if (startTime <= endTime) return { startTime, endTime };
  const storedTrim = stored?.trim;
  if (storedTrim && !holdsAny(stored, storedTrim)) return storedTrim;
  const after = datapoints.reduce((max, d) => Math.max(max, d.timestamp), 0) + 1;
  return { startTime: after, endTime: after };
}

function holdsAny(stored: Report, trim: Trim): boolean {
  return datapointsFromColumns(decodeDatapoints(stored.datapoints)).some((d) => d.timestamp >= trim.startTime && d.timestamp <= trim.endTime);
}

/** The remote's access entries with their own ids; the owner's added when the remote left it out. */
function accessOf(remote: RemoteReport): ReportAccess[] {
  const entries: ReportAccess[] = remote.access.map((a) => ({ id: a.id, companyId: a.companyId, role: a.role }));
  if (!entries.some((a) => a.role === 'owner' && a.companyId === remote.company.id)) {
    entries.unshift({ id: accessId(remote.id, remote.company.id), companyId: remote.company.id, role: 'owner' });
  }
  return entries;
}
