/**
 * Temperature (and humidity) limits. Only the owning company may change them; everyone else
 * sees the limits (and, unless the panel said it already, one sentence saying why they cannot). A saved change answers with the
 * recalculated report, so the new alert level shows at once.
 */
import { useState } from 'react';
import type { FormEvent } from 'react';
import type { LabelReport } from '../../schema/report';
import type { Limits } from '../../schema/sense';
import { formatHumidity, formatTemperature } from '../lib/format';
import type { EditRights } from '../lib/permissions';
import { hasHumidity } from '../lib/report-view';
import { stores, useDetail } from '../state/stores';
import { ReadOnlyReason, SaveMessage } from './SaveMessage';

type LimitKey = keyof Limits;

const text = (n: number | undefined) => (n === undefined ? '' : String(n));

/** Parses the form into the limits to send (only the changed ones), or a message saying what is wrong. */
export function limitsFromForm(current: Limits, form: Record<LimitKey, string>): { limits: Partial<Limits> } | { error: string } {
  const out: Partial<Limits> = {};
  for (const key of ['minTemperature', 'maxTemperature', 'minHumidity', 'maxHumidity'] as const) {
    const raw = form[key].trim().replace(',', '.');
    if (raw === '') {
      if (key === 'minTemperature' || key === 'maxTemperature') return { error: 'Both temperature limits are needed.' };
      if (current[key] !== undefined) return { error: 'A humidity limit that is set cannot be removed here, only changed.' };
      continue;
    }
    const value = Number(raw);
    if (!Number.isFinite(value)) return { error: `"${form[key]}" is not a number.` };
    if (value !== current[key]) out[key] = value;
  }
  const merged = { ...current, ...out };
  if (merged.minTemperature > merged.maxTemperature) return { error: 'The minimum temperature must not be above the maximum.' };
  if (merged.minHumidity !== undefined && merged.maxHumidity !== undefined && merged.minHumidity > merged.maxHumidity)
    return { error: 'The minimum humidity must not be above the maximum.' };
  return { limits: out };
}

export function LimitsEditor({ report, rights, notice }: { report: LabelReport; rights: EditRights; notice: string | null }) {
  const limits = report.senseConfig.limits;
  const saving = useDetail((s) => s.saving === 'limits');
  const showHumidity = report.type === 'humiditySense' || limits.minHumidity !== undefined || limits.maxHumidity !== undefined || hasHumidity(report.calculatedSenseData.datapoints);
  const [form, setForm] = useState<Record<LimitKey, string>>({
    minTemperature: text(limits.minTemperature),
    maxTemperature: text(limits.maxTemperature),
    minHumidity: text(limits.minHumidity),
    maxHumidity: text(limits.maxHumidity),
  });
  const setProblem = (message: string | null) => stores.detail.getState().refuse('limits', message);

  if (!rights.canEditLimits) {
    return (
      <section className="panel" aria-labelledby="limits-title">
        <h3 id="limits-title">Limits</h3>
        <p data-testid="limits-values">
          Temperature {formatTemperature(limits.minTemperature)} to {formatTemperature(limits.maxTemperature)}
          {limits.minHumidity !== undefined || limits.maxHumidity !== undefined
            ? `; humidity ${formatHumidity(limits.minHumidity)} to ${formatHumidity(limits.maxHumidity)}`
            : ''}
        </p>
        {notice && <ReadOnlyReason reason={notice} testId="limits-locked" />}
        <SaveMessage section="limits" />
      </section>
    );
  }

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const parsed = limitsFromForm(limits, form);
    if ('error' in parsed) {
      setProblem(parsed.error);
      return;
    }
    setProblem(null);
    if (Object.keys(parsed.limits).length === 0) {
      setProblem('Nothing changed.');
      return;
    }
    await stores.detail.getState().save('limits', { limits: parsed.limits });
  };

  const input = (key: LimitKey, label: string, unit: string) => (
    <label className="field">
      <span className="field__label">{label}</span>
      <span className="input-unit">
        <input
          name={key}
          inputMode="decimal"
          value={form[key]}
          onChange={(e) => setForm({ ...form, [key]: e.target.value })}
          aria-describedby="limits-help"
        />
        <span>{unit}</span>
      </span>
    </label>
  );

  return (
    <section className="panel" aria-labelledby="limits-title">
      <h3 id="limits-title">Limits</h3>
      <form className="form-row" onSubmit={submit} data-testid="limits-form">
        {input('minTemperature', 'Min temperature', '°C')}
        {input('maxTemperature', 'Max temperature', '°C')}
        {showHumidity && input('minHumidity', 'Min humidity', '%RH')}
        {showHumidity && input('maxHumidity', 'Max humidity', '%RH')}
        <button type="submit" className="button button--primary" disabled={saving}>
          {saving ? 'Saving…' : 'Save limits'}
        </button>
      </form>
      <p id="limits-help" className="muted small">
        A reading equal to a limit is in range. Saving recalculates excursions and the alert level from the readings already taken.
      </p>
      <SaveMessage section="limits" />
    </section>
  );
}
