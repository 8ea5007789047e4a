/** The alert explained, in the report panel: the sentence, time outside the limits, the rules and each excursion. */
import { useDetail, useReview } from '../state/stores';
import { explanationInZone } from '../lib/zoned-text';
import { useTimeZone } from '../state/time-zone';
import { AlertRules, TimeOutside } from './AlertRules';
import { ExcursionTable } from './ExcursionTable';

export function AlertsPanel() {
  const alerts = useReview((s) => s.alerts);
  const error = useReview((s) => s.error);
  const zone = useTimeZone();
  const reportId = useDetail((s) => s.report?.id);
  return (
    <section className="panel" aria-labelledby="alerts-title" data-testid="alerts-panel">
      <h3 id="alerts-title">Alert explained</h3>
      {!alerts ? (
        <p className="muted">{error ?? 'Loading…'}</p>
      ) : (
        <>
          <p data-testid="alert-explanation">
            {explanationInZone(alerts.explanation, alerts.alert.timestamp, zone)}
            {alerts.range === 'trimmed' && ' (The figures are for the trimmed range, as the alert is.)'}
          </p>
          <TimeOutside alerts={alerts} />
          <h4>Alert rules</h4>
          <AlertRules alerts={alerts} zone={zone} />
          <h4>Excursions ({alerts.excursions.length})</h4>
          <ExcursionTable excursions={alerts.excursions} zone={zone} jumpIn={reportId} />
        </>
      )}
    </section>
  );
}
