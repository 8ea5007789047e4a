/**
 * Taking in labels (docs/api.md#activation-and-taps): a label's activation and the reading of each tap, for the
 * key's company. Each is one write transaction through the write path, and its event is
 * announced inside it: a change that rolls back announces nothing, and a committed one is
 * announced exactly once.
 */
import { randomUUID } from 'node:crypto';
import type { DataStore } from '../db/data-store';
import { decodeDatapoints, encodeDatapoints } from '../model/datapoint-codec';
import type { ActivationBody, TapBody } from '../schema/intake';
import { MAX_DATAPOINTS } from '../schema/sense';
import { appendNewReadings } from '../sense';
import { actorOf, requirePermission, type Caller } from './api-keys';
import { roleOf } from '../model/report';
import { withFigures } from '../model/report-figures';
import { authorizeFor, notFound, reportDocumentFor } from './label-reports';
import { ConflictError, InvalidInputError, RoleForbiddenError } from '../model/errors';
import type { ReportEvents } from './report-events';
import type { ReportDocument } from './report-json';
import { reportFromBundle } from './report-from-bundle';
import type { ReportWriter } from './report-writer';

export class LabelIntake {
  constructor(
    private readonly data: DataStore,
    private readonly writer: ReportWriter,
    private readonly events: ReportEvents,
    private readonly now: () => Date,
  ) {}

  /**
   * The checks before a route reads the body: the key's permission (403), then, for a tap, the
   * report's visibility (404). The operations below make them again.
   */
  authorize(caller: Caller, id?: string): void {
    authorizeFor(this.data, caller, 'labelReports:create', id);
  }

  /** A new report of the key's company: active, untapped, without data. */
  activate(caller: Caller, body: ActivationBody): ReportDocument {
    requirePermission(caller, 'labelReports:create');
    const id = body.id ?? randomUUID();
    return this.data.write(() => {
      // Ids are global: one another company holds is taken too, though it stays invisible here.
      if (this.data.reports.exists(id)) throw new ConflictError('REPORT_EXISTS', `a label report with id '${id}' exists already`);
      const created = this.now().toISOString();
      const report = reportFromBundle({
        ...body,
        id,
        created,
        companyId: caller.companyId,
        status: 'active',
        numberOfTaps: 0,
        reportedSenseData: { datapoints: [] },
      });
      this.writer.put(report, actorOf(caller), null);
      this.events.reportEvent('labelReport.activated', id);
      return reportDocumentFor(this.data, report, caller.companyId, this.now);
    });
  }

  /** A tap's reading taken into the owner's report; everything calculated is calculated again. */
  tap(caller: Caller, id: string, reading: TapBody): ReportDocument {
    requirePermission(caller, 'labelReports:create');
    return this.data.write(() => {
      const before = this.writer.load(id);
      const role = before && roleOf(before, caller.companyId);
      if (!before || !role) throw notFound(id);
      const raw = appendNewReadings(decodeDatapoints(before.datapoints), reading.datapoints);
      if (raw.timestamps.length > MAX_DATAPOINTS) {
        throw new InvalidInputError(
          'INVALID_BODY',
          `datapoints: with this tap the report would hold ${raw.timestamps.length} datapoints, more than ${MAX_DATAPOINTS}`,
        );
      }
      if (role !== 'owner') throw new RoleForbiddenError('Only the label report owner can add a tap');
      // What the label says of itself describes the moment of this tap; an earlier tap's
      // counters would be stale, so those it leaves out fall back to the derived ones.
      const reported: typeof before.reported = {};
      if (reading.currentTime !== undefined) reported.currentTime = reading.currentTime;
      if (reading.numberOfDatapointsAvailable !== undefined) reported.numberOfDatapointsAvailable = reading.numberOfDatapointsAvailable;
      if (reading.numberOfMeasurementsOccurred !== undefined) reported.numberOfMeasurementsOccurred = reading.numberOfMeasurementsOccurred;
      const after = withFigures({ ...before, numberOfTaps: before.numberOfTaps + 1, reported, datapoints: encodeDatapoints(raw) });
      const saved = this.writer.edit(before, after, actorOf(caller), { via: 'tap' });
      this.events.reportEvent('labelReport.tapped', id);
      return reportDocumentFor(this.data, saved, caller.companyId, this.now);
    });
  }
}

