import type { Decision } from '../schema/review';

/** The company's current decision of a report: what, who signed it (a person, or a tool's key) and when. */
export interface CurrentDecision {
  decision: Decision;
  person: { name: string; login: string } | null;
  keyName: string | null;
  /** ISO 8601 UTC. */
  at: string;
}

/**
 * A report as a line of the list's table (and its CSV), as the caller's company sees it. The
 * excursion figures are the whole run's, as the list's Out of range column sorts by them.
 */
export interface ReportTableRecord {
  id: string;
  labelReference: string;
  labelUid: string;
  labelName: string;
  status: string;
  alertLevel: number;
  created: string;
  updated: string;
  hasFlag: boolean;
  isArchived: boolean;
  ownerCompanyName: string;
  excursions: number;
  /** Seconds beyond any limit. */
  excursionSeconds: number;
  degreeHours: number;
  /** Null while the company has no decision standing (none made, or the newest withdrawn). */
  decision: CurrentDecision | null;
}
