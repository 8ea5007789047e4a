/**
 * A label report as the rules see it: camelCase, booleans, parsed values. `db/` turns rows into
 * this shape and back (db/report-convert.ts); nothing above `db/` sees a column. The raw
 * datapoints stay encoded (model/datapoint-codec.ts): most reads never need them decoded.
 */
import type { CustomFieldValue, Mode, ReportType, Role, Status } from '../schema/report';
import type { AlertsConfig, MinimalSenseData, SenseConfig, SenseFigures, Trim } from '../schema/sense';
import type { ReportedCounters } from '../sense';

export interface ReportLabel {
  uid: string;
  sequenceCode: string;
  type: string;
  name: string;
  firmwareVersionInfo: { firmwareVersion: string; firmwareApiVersion: string };
  /** Unset: the default battery life. */
  batteryLifeDays: number | null;
}

/** What the sense engine computed from the inputs; rewritten together whenever an input changes. */
export interface ReportFigures {
  calculated: SenseFigures;
  /** Null without a trim. */
  trimmed: SenseFigures | null;
  minimal: MinimalSenseData;
  alert: { level: number; timestamp: number };
}

export interface ReportAccess {
  id: string;
  companyId: string;
  role: Role;
}

/** A company's own flag and archive state; a company without one has both false. */
export interface CompanyState {
  companyId: string;
  hasFlag: boolean;
  isArchived: boolean;
}

export interface ReportCustomField {
  customFieldId: string;
  value: CustomFieldValue;
}

export interface Report {
  id: string;
  created: string;
  updated: string;
  ownerCompanyId: string;
  subCompany: { id: string; [key: string]: unknown } | null;
  user: Record<string, unknown> | null;
  labelPreset: Record<string, unknown> | null;
  label: ReportLabel;
  mode: Mode;
  type: ReportType;
  status: Status;
  labelReference: string;
  senseConfig: SenseConfig;
  alertsConfig: AlertsConfig | null;
  numberOfTaps: number;
  dataIsIncomplete: boolean;
  /** The counters the label itself reported; absent ones the engine derives. */
  reported: ReportedCounters;
  /** Encoded columns (model/datapoint-codec.ts). */
  datapoints: Buffer;
  trim: Trim | null;
  figures: ReportFigures;
  access: ReportAccess[];
  states: CompanyState[];
  /** In the order they were set. */
  customFields: ReportCustomField[];
}

/** The company's state on the report: false flags when it has none. */
export function stateOf(report: Pick<Report, 'states'>, companyId: string): CompanyState {
  return report.states.find((s) => s.companyId === companyId) ?? { companyId, hasFlag: false, isArchived: false };
}

/** The company's role on the report, or undefined when it cannot see it. */
export function roleOf(report: Pick<Report, 'access'>, companyId: string): Role | undefined {
  return report.access.find((a) => a.companyId === companyId)?.role;
}
