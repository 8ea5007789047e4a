/**
 * The rules a remote's report must keep beyond its shape before the mirror takes it: the
 * remote is trusted for every report of the company, so an answer that contradicts itself or
 * the question is refused rather than written over a report nobody asked about. Pure: each
 * rule returns the reason a person reads in the list of reports refused from the remote.
 */
import { describeZodError } from '../contract/zod-messages';
import { remoteReportSchema, type RemoteReport } from '../schema/sync';

/** A report the remote sent that the mirror does not take, and why. */
export interface RefusedReport {
  id: string;
  reason: string;
}

/** The remote's answer for `id` read as a report, or the reason it cannot be one. */
export function readRemoteReport(id: string, answer: unknown): RemoteReport | RefusedReport {
  const parsed = remoteReportSchema.safeParse(answer);
  if (!parsed.success) return { id, reason: `not what the label report interface answers: ${describeZodError(parsed.error)}` };
  if (parsed.data.id !== id) return { id, reason: `the remote answered with label report '${parsed.data.id}' when asked for '${id}'` };
  return parsed.data;
}

export function isRefused(value: RemoteReport | RefusedReport): value is RefusedReport {
  return 'reason' in value;
}

/**
 * Why the remote's report cannot stand as the key's company's view of it, or null. `companyId`
 * is the remote key's company: the remote shows only reports that company may see.
 */
export function inconsistency(report: RemoteReport, companyId: string): string | null {
  const { access } = report;
  const owner = report.company.id;
  if (owner !== companyId && !access.some((a) => a.companyId === companyId)) {
    return `the remote shows it without company '${companyId}' (the remote key's) as its owner or among its access entries`;
  }
  const ids = new Set<string>();
  const companies = new Set<string>();
  for (const a of access) {
    if (ids.has(a.id)) return `access entry id '${a.id}' is listed twice`;
    if (companies.has(a.companyId)) return `company '${a.companyId}' is listed twice in access`;
    if (a.labelReportId !== undefined && a.labelReportId !== report.id) {
      return `access entry '${a.id}' belongs to label report '${a.labelReportId}', not to this one`;
    }
    if ((a.role === 'owner') !== (a.companyId === owner)) {
      return a.role === 'owner'
        ? `access names company '${a.companyId}' as owner, but the report's company is '${owner}'`
        : `the owning company '${owner}' is listed in access as ${a.role}`;
    }
    ids.add(a.id);
    companies.add(a.companyId);
  }
  const { limits } = report.senseConfig;
  if (limits.minTemperature > limits.maxTemperature) return 'its minTemperature limit is above its maxTemperature';
  if (limits.minHumidity !== undefined && limits.maxHumidity !== undefined && limits.minHumidity > limits.maxHumidity) {
    return 'its minHumidity limit is above its maxHumidity';
  }
  const fields = new Set<string>();
  for (const f of report.customFields ?? []) {
    if (fields.has(f.customFieldId)) return `custom field '${f.customFieldId}' is set twice`;
    fields.add(f.customFieldId);
  }
  return null;
}
