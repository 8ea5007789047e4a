/**
 * A database of demo data with the renderer built beside it, and the reports in it that a test
 * of the report panel or its printout needs: one owned by a company, with several excursions.
 */
import type { AlertExplanation } from '../../schema/review';
import type { LabelReport } from '../../schema/report';
import type { Caller } from '../../service/api-keys';
import { openService } from '../../host/open-service';
import { parseListQuery } from '../../query/list-query';

export interface ReportWithExcursions {
  report: LabelReport;
  alerts: AlertExplanation;
}

/** The first report `companyId` owns with at least `min` excursions and a reference, as that company sees it. */
export function findReportWithExcursions(dbFile: string, companyId: string, min = 2): ReportWithExcursions {
  const service = openService(dbFile);
  try {
    const caller: Caller = { keyId: 'test', companyId, permissions: new Set(['labelReports:read']) };
    const page = service.reports.list(
      caller,
      parseListQuery({ filter: 'alert.level[gte]1', order: 'created[desc]', pageSize: '500', output: 'minimal' }),
    );
    for (const row of page.data) {
      if (row.company.id !== companyId || !row.labelReference) continue;
      const alerts = service.reviews.alerts(caller, row.id);
      if (alerts.excursions.length >= min) return { report: service.reports.retrieve(caller, row.id), alerts };
    }
    throw new Error(`the demo data has no report of ${companyId} with ${min} excursions`);
  } finally {
    service.close();
  }
}
