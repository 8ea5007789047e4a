/** A report as a line of the list's table (and its CSV), as the caller's company sees it. */
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
}
