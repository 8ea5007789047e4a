/**
 * What went wrong in the shipment, in figures. They are the effective timeline's (the trimmed
 * range when a trim is set, as the alert level is), with the whole run's excursion count beside
 * them so a trim never hides an excursion silently.
 */
import type { LabelReport } from '../../schema/report';
import { formatDuration, formatHumidity, formatNumber, formatTemperature } from '../lib/format';
import { effectiveSenseData, trimRange } from '../lib/report-view';
import { formatTime } from '../lib/time-zone';
import type { TimeZoneSetting } from '../lib/time-zone';
import { useTimeZone } from '../state/time-zone';
import { FiguresSource } from './FiguresSource';
import { AlertBadge } from './AlertBadge';

function Figure({ label, value, hint, testId }: { label: string; value: string; hint?: string; testId?: string }) {
  return (
    <div className="figure" data-testid={testId}>
      <dt className="figure__label">{label}</dt>
      <dd className="figure__value">{value}</dd>
      {hint && <dd className="figure__hint">{hint}</dd>}
    </div>
  );
}

/** The alert level in words: "no taps" only for a label never tapped. */
function alertSentence(report: LabelReport, zone: TimeZoneSetting): string {
  if (report.alert.level > 0) return report.alert.timestamp > 0 ? `reached ${formatTime(report.alert.timestamp, zone)}` : 'an alert rule fired';
  if (report.alert.level === 0) return 'no alert rule fired';
  return report.numberOfTaps === 0 ? 'the label has not been tapped yet' : 'no alert level calculated yet';
}

export function FiguresPanel({ report }: { report: LabelReport }) {
  const zone = useTimeZone();
  const data = effectiveSenseData(report);
  const trim = trimRange(report);
  const t = data.analysedValues.temperature;
  const v = data.numberOfViolations;
  const d = data.durationOfViolations;
  const humidity = data.attainedValues.minHumidity !== undefined || v.humidity > 0;
  const battery = report.label.estimatedBatteryDaysLeft;
  return (
    <section className="panel" aria-labelledby="figures-title">
      <h3 id="figures-title">Figures</h3>
      <FiguresSource report={report} />
      {trim && (
        <p className="note" data-testid="trim-note">
          For the trimmed range {formatTime(trim.start, zone)} – {formatTime(trim.end, zone)}. The whole run had{' '}
          {report.calculatedSenseData.numberOfViolations.all} excursion{report.calculatedSenseData.numberOfViolations.all === 1 ? '' : 's'}.
        </p>
      )}
      <div className="alert-line" data-testid="alert-line">
        <AlertBadge level={report.alert.level} large />
        <span>
          {alertSentence(report, zone)}
        </span>
      </div>
      <dl className="figures">
        <Figure testId="fig-min" label="Minimum" value={formatTemperature(data.attainedValues.minTemperature)} />
        <Figure testId="fig-max" label="Maximum" value={formatTemperature(data.attainedValues.maxTemperature)} />
        <Figure testId="fig-avg" label="Average" value={formatTemperature(t.average)} />
        <Figure testId="fig-mkt" label="MKT" value={formatTemperature(t.meanKineticTemperature)} hint="mean kinetic temperature" />
        <Figure testId="fig-dh" label="Degree-hours" value={`${formatNumber(t.degreeHour, 2)} °C·h`} hint="outside the limits" />
        <Figure
          testId="fig-excursions"
          label="Excursions"
          value={String(v.all)}
          hint={humidity ? `${v.temperature} temperature, ${v.humidity} humidity` : undefined}
        />
        <Figure
          testId="fig-duration"
          label="Time out of range"
          value={formatDuration(d.all)}
          hint={humidity ? `temperature ${formatDuration(d.temperature)}, humidity ${formatDuration(d.humidity)}` : undefined}
        />
        {humidity && (
          <Figure
            label="Humidity range"
            value={`${formatHumidity(data.attainedValues.minHumidity)} – ${formatHumidity(data.attainedValues.maxHumidity)}`}
          />
        )}
        <Figure
          testId="fig-battery"
          label="Battery"
          value={battery === undefined ? '—' : `${battery} day${battery === 1 ? '' : 's'} left`}
          hint="estimated"
        />
        <Figure testId="fig-taps" label="Taps" value={String(report.numberOfTaps)} />
        <Figure
          testId="fig-readings"
          label="Readings"
          value={`${data.numberOfDatapointsRead.toLocaleString()} read`}
          hint={`${data.numberOfDatapointsAvailable.toLocaleString()} available, ${data.numberOfMeasurementsOccurred.toLocaleString()} measured`}
        />
        <Figure label="Running" value={formatDuration(data.elapsedTime)} hint={`since start ${formatTime(data.startTime, zone)}`} />
      </dl>
      {report.dataIsIncomplete && <p className="note note--warn">The data of this report is incomplete: not every measurement was read out.</p>}
    </section>
  );
}
