/**
 * The trim: the part of the run that counts (leaving out, say, the hours on the loading dock
 * before the label went into the truck). Owner and editors; two local date/times, or the range
 * currently zoomed in the chart.
 */
import { useState } from 'react';
import type { FormEvent } from 'react';
import type { LabelReport } from '../../schema/report';
import { trimSchema } from '../../schema/sense';
import { formatTime, fromDateTimeInput, toDateTimeInput, zoneLabel } from '../lib/time-zone';
import type { EditRights } from '../lib/permissions';
import { plainZodError } from '../lib/plain-words';
import { trimRange } from '../lib/report-view';
import type { TimeRange } from '../lib/report-view';
import { stores, useDetail } from '../state/stores';
import { useTimeZone } from '../state/time-zone';
import { ReadOnlyReason, SaveMessage } from './SaveMessage';

export function TrimEditor({
  report,
  rights,
  viewRange,
  notice,
}: {
  report: LabelReport;
  rights: EditRights;
  viewRange: TimeRange | null;
  notice: string | null;
}) {
  const trim = trimRange(report);
  const saving = useDetail((s) => s.saving === 'trim');
  const zone = useTimeZone();
  const [start, setStart] = useState(trim ? toDateTimeInput(trim.start, zone) : '');
  const [end, setEnd] = useState(trim ? toDateTimeInput(trim.end, zone) : '');
  const setProblem = (message: string | null) => stores.detail.getState().refuse('trim', message);
  const locked = !rights.canTrim;
  const dps = report.calculatedSenseData.datapoints;

  const apply = async (e: FormEvent) => {
    e.preventDefault();
    const startTime = fromDateTimeInput(start, zone);
    const endTime = fromDateTimeInput(end, zone);
    if (startTime === null || endTime === null) return setProblem('Enter both a start and an end date and time.');
    const checked = trimSchema.safeParse({ startTime, endTime });
    if (!checked.success) return setProblem(plainZodError(checked.error));
    setProblem(null);
    await stores.detail.getState().save('trim', { trim: checked.data });
  };

  return (
    <section className="panel" aria-labelledby="trim-title">
      <h3 id="trim-title">Trim</h3>
      <p data-testid="trim-state">
        {trim ? `Trimmed to ${formatTime(trim.start, zone, true)} – ${formatTime(trim.end, zone, true)} (${zoneLabel(zone)}).` : 'Not trimmed: the whole run counts.'}
      </p>
      {locked ? (
        notice && <ReadOnlyReason reason={notice} />
      ) : (
        <form className="form-row" onSubmit={apply} data-testid="trim-form">
          <label className="field">
            <span className="field__label">From ({zoneLabel(zone)})</span>
            <input type="datetime-local" step={1} name="trimStart" value={start} onChange={(e) => setStart(e.target.value)} />
          </label>
          <label className="field">
            <span className="field__label">To ({zoneLabel(zone)})</span>
            <input type="datetime-local" step={1} name="trimEnd" value={end} onChange={(e) => setEnd(e.target.value)} />
          </label>
          <button type="submit" className="button button--primary" disabled={saving}>
            Apply trim
          </button>
          <button
            type="button"
            className="button"
            disabled={!viewRange}
            title="Use the range currently zoomed in the chart"
            onClick={() => {
              if (!viewRange) return;
              setStart(toDateTimeInput(Math.ceil(viewRange.start), zone));
              setEnd(toDateTimeInput(Math.floor(viewRange.end), zone));
            }}
          >
            Use zoomed range
          </button>
          {dps.length > 0 && !trim && (
            <button
              type="button"
              className="button button--quiet"
              onClick={() => {
                setStart(toDateTimeInput(dps[0].timestamp, zone));
                setEnd(toDateTimeInput(dps[dps.length - 1].timestamp, zone));
              }}
            >
              Fill whole run
            </button>
          )}
          <button type="button" className="button button--quiet" disabled={saving || !trim} onClick={() => void stores.detail.getState().save('trim', { trim: null })}>
            Clear trim
          </button>
        </form>
      )}
      <SaveMessage section="trim" />
    </section>
  );
}
