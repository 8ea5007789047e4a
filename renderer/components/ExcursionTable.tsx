/**
 * Each excursion of the report on its own row: when it started and ended, how long it lasted,
 * its peak, and which limit it crossed in which direction. Times are in the chosen zone, named
 * in the header. In the report panel each row also jumps to its first reading in the readings
 * table (the print view has no such table, and no buttons).
 */
import type { Excursion } from '../../schema/review';
import { formatDuration, formatHumidity, formatTemperature } from '../lib/format';
import { formatTime, zoneShortLabel } from '../lib/time-zone';
import type { TimeZoneSetting } from '../lib/time-zone';
import { readingsFocusStore } from '../state/readings-focus';

function valueWithUnit(e: Pick<Excursion, 'quantity'>, value: number): string {
  return e.quantity === 'humidity' ? formatHumidity(value) : formatTemperature(value);
}

/** "Above max 8.0 °C", "Below min 40.0 %RH". */
export function limitText(e: Excursion): string {
  return `${e.direction === 'above' ? 'Above max' : 'Below min'} ${valueWithUnit(e, e.limit)}`;
}

export interface ExcursionTableProps {
  excursions: readonly Excursion[];
  zone: TimeZoneSetting;
  scroll?: boolean;
  /** The report whose readings table a row's "Show readings" jumps in; no jump without it. */
  jumpIn?: string;
}

export function ExcursionTable({ excursions, zone, scroll = true, jumpIn }: ExcursionTableProps) {
  if (excursions.length === 0) return <p data-testid="excursions-none">No excursions: every reading was within the limits.</p>;
  const table = (
    <table className="data-table" data-testid="excursion-table">
      <thead>
        <tr>
          <th scope="col">#</th>
          <th scope="col">Start ({zoneShortLabel(zone)})</th>
          <th scope="col">End</th>
          <th scope="col">Duration</th>
          <th scope="col">Peak</th>
          <th scope="col">Limit crossed</th>
          {jumpIn !== undefined && (
            <th scope="col">
              <span className="visually-hidden">Readings</span>
            </th>
          )}
        </tr>
      </thead>
      <tbody>
        {excursions.map((e, i) => (
          <tr key={`${e.quantity}:${e.start}`} data-testid="excursion-row">
            <td className="num">{i + 1}</td>
            <td>{formatTime(e.start, zone)}</td>
            <td>{formatTime(e.end, zone)}</td>
            <td className="num">{formatDuration(e.durationSeconds)}</td>
            <td className="num">{valueWithUnit(e, e.peak)}</td>
            <td>
              <span className={`direction--${e.direction}`}>{limitText(e)}</span>
              <span className="muted"> · {e.quantity === 'humidity' ? 'humidity' : 'temperature'}</span>
            </td>
            {jumpIn !== undefined && (
              <td>
                <button
                  type="button"
                  className="button button--small button--quiet"
                  onClick={() => readingsFocusStore.getState().jump(jumpIn, e.start)}
                  data-testid="excursion-jump"
                >
                  {/* Read out "Show readings of excursion 2": the words seen first, then which. */}
                  Show readings<span className="visually-hidden"> of excursion {i + 1}</span>
                </button>
              </td>
            )}
          </tr>
        ))}
      </tbody>
    </table>
  );
  return scroll ? <div className="data-table__scroll">{table}</div> : table;
}
