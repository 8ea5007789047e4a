/**
 * The trim: the part of the run that counts (leaving out, say, the hours on the loading dock
 * before the label went into the truck). Owner and editors; two local date/times, or the range
 * currently zoomed in the chart.
 */
import { useState } from 'react';
import type { FormEvent } from 'react';
import type { LabelReport } from '../../schema/report';
import { trimSchema } from '../../schema/sense';
import { describeZodError } from '../../contract/zod-messages';
import { epochToLocalInput, localInputToEpoch } from '../lib/datetime-local';
import { formatEpoch } from '../lib/format';
import type { EditRights } from '../lib/permissions';
import { trimRange } from '../lib/report-view';
import type { TimeRange } from '../lib/report-view';
import { stores, useDetail } from '../state/stores';
import { ReadOnlyReason, SaveMessage, ProblemMessage } from './SaveMessage';

export function TrimEditor({ report, rights, viewRange }: { report: LabelReport; rights: EditRights; viewRange: TimeRange | null }) {
  const trim = trimRange(report);
  const saving = useDetail((s) => s.saving === 'trim');
  const [start, setStart] = useState(trim ? epochToLocalInput(trim.start) : '');
  const [end, setEnd] = useState(trim ? epochToLocalInput(trim.end) : '');
  const [problem, setProblem] = useState<string | null>(null);
  const locked = !rights.canTrim;
  const dps = report.calculatedSenseData.datapoints;

  const apply = async (e: FormEvent) => {
    e.preventDefault();
    const startTime = localInputToEpoch(start);
    const endTime = localInputToEpoch(end);
    if (startTime === null || endTime === null) return setProblem('Enter both a start and an end date and time.');
    const checked = trimSchema.safeParse({ startTime, endTime });
    if (!checked.success) return setProblem(describeZodError(checked.error));
    setProblem(null);
    await stores.detail.getState().save('trim', { trim: checked.data });
  };

  return (
    <section className="panel" aria-labelledby="trim-title">
      <h3 id="trim-title">Trim</h3>
      <p data-testid="trim-state">
        {trim ? `Trimmed to ${formatEpoch(trim.start, true)} – ${formatEpoch(trim.end, true)}.` : 'Not trimmed: the whole run counts.'}
      </p>
      {locked ? (
        <ReadOnlyReason reason={rights.bookkeepingReason ?? ''} />
      ) : (
        <form className="form-row" onSubmit={apply} data-testid="trim-form">
          <label className="field">
            <span className="field__label">From</span>
            <input type="datetime-local" step={1} name="trimStart" value={start} onChange={(e) => setStart(e.target.value)} />
          </label>
          <label className="field">
            <span className="field__label">To</span>
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
              setStart(epochToLocalInput(Math.ceil(viewRange.start)));
              setEnd(epochToLocalInput(Math.floor(viewRange.end)));
            }}
          >
            Use zoomed range
          </button>
          {dps.length > 0 && !trim && (
            <button
              type="button"
              className="button button--quiet"
              onClick={() => {
                setStart(epochToLocalInput(dps[0].timestamp));
                setEnd(epochToLocalInput(dps[dps.length - 1].timestamp));
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
      <ProblemMessage problem={problem} />
      <SaveMessage section="trim" />
    </section>
  );
}
