/**
 * Taking in labels (decisions §6): a label's activation and the reading of each tap, for the
 * key's company. Each is one write transaction through the write path, and its event is
 * announced inside it: a change that rolls back announces nothing, and a committed one is
 * announced exactly once.
 */
import { randomUUID } from 'node:crypto';
import type { DataStore } from '../db/data-store';
import { decodeDatapoints, encodeDatapoints } from '../db/datapoint-codec';
import type { Actor } from '../schema/change-log';
import type { ActivationBody, TapBody } from '../schema/intake';
import { MAX_DATAPOINTS } from '../schema/sense';
import { appendNewReadings } from '../sense';
import { requirePermission, type Caller } from './api-keys';
import { ConflictError, InvalidInputError, RoleForbiddenError } from './errors';
import { authorizeFor, notFound, visibleReport } from './label-reports';
import type { ReportEvents } from './report-events';
import type { ReportDocument } from './report-json';
import { recalculate, recordFromBundle, senseSettingsOf } from './report-record';
import type { ReportEdit, ReportWriter } from './report-writer';

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
      const record = recordFromBundle({
        ...body,
        id,
        created,
        companyId: caller.companyId,
        status: 'active',
        numberOfTaps: 0,
        reportedSenseData: { datapoints: [] },
      });
      this.writer.put(record, actorOf(caller));
      this.events.reportEvent('labelReport.activated', id);
      return visibleReport(this.data, caller, id, this.now);
    });
  }

  /** A tap's reading taken into the owner's report; everything calculated is calculated again. */
  tap(caller: Caller, id: string, reading: TapBody): ReportDocument {
    requirePermission(caller, 'labelReports:create');
    return this.data.write(() => {
      const row = this.data.reports.findVisible(caller.companyId, id);
      if (!row) throw notFound(id);
      const raw = appendNewReadings(decodeDatapoints(row.datapoints), reading.datapoints);
      if (raw.timestamps.length > MAX_DATAPOINTS) {
        throw new InvalidInputError(
          'INVALID_BODY',
          `datapoints: with this tap the report would hold ${raw.timestamps.length} datapoints, more than ${MAX_DATAPOINTS}`,
        );
      }
      if (row.caller_role !== 'owner') throw new RoleForbiddenError('Only the label report owner can add a tap');
      const columns: ReportEdit['columns'] = {
        number_of_taps: row.number_of_taps + 1,
        // What the label says of itself describes the moment of this tap; an earlier tap's
        // counters would be stale, so those it leaves out fall back to the derived ones.
        reported_current_time: reading.currentTime ?? null,
        reported_available: reading.numberOfDatapointsAvailable ?? null,
        reported_measurements: reading.numberOfMeasurementsOccurred ?? null,
      };
      Object.assign(columns, recalculate(raw, senseSettingsOf({ ...row, ...columns })));
      this.writer.edit(id, actorOf(caller), { columns, datapoints: encodeDatapoints(raw) });
      this.events.reportEvent('labelReport.tapped', id);
      return visibleReport(this.data, caller, id, this.now);
    });
  }
}

function actorOf(caller: Caller): Actor {
  return { kind: 'apiKey', keyId: caller.keyId };
}
