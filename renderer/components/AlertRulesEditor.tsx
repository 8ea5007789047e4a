/**
 * The report's alert rules, editable by the owning company: per rule the level it raises,
 * whether the time out of limits counts in total or only without a break, and after how long.
 * Like limits, a change is confirmed with a reason and the alert it leads to before it is sent.
 */
import { useState } from 'react';
import type { FormEvent } from 'react';
import type { LabelReport } from '../../schema/report';
import { DEFAULT_ALERT_RULES, type AlertRule } from '../../schema/sense';
import type { EditRights } from '../lib/permissions';
import { alertLevelInfo } from '../lib/format';
import { stores, useDetail } from '../state/stores';
import { SaveMessage } from './SaveMessage';

interface RuleRow {
  level: '1' | '2';
  kind: AlertRule['kind'];
  minutes: string;
}

const KIND_WORDS: Record<AlertRule['kind'], string> = {
  cumulative: 'in total',
  singleEvent: 'without a break',
};

function rowOf(rule: AlertRule): RuleRow {
  return { level: rule.level === 2 ? '2' : '1', kind: rule.kind, minutes: String(rule.seconds / 60) };
}

/** The rules to send, or what is wrong with the form, in words. */
export function rulesFromForm(rows: readonly RuleRow[]): { rules: AlertRule[] } | { error: string } {
  if (rows.length === 0) return { error: 'A report needs at least one alert rule; “Use the default rules” puts the defaults back.' };
  const rules: AlertRule[] = [];
  for (const [i, row] of rows.entries()) {
    const minutes = Number(row.minutes.trim().replace(',', '.'));
    if (row.minutes.trim() === '' || !Number.isFinite(minutes) || minutes < 0) {
      return { error: `Rule ${i + 1}: “${row.minutes}” is not a number of minutes (0 or more).` };
    }
    rules.push({ level: Number(row.level), kind: row.kind, seconds: Math.round(minutes * 60) });
  }
  return { rules };
}

export function AlertRulesEditor({ report, rights }: { report: LabelReport; rights: EditRights }) {
  const saving = useDetail((s) => s.saving === 'alertRules');
  const own = report.alertsConfig?.rules ?? null;
  const [rows, setRows] = useState<RuleRow[]>(() => (own ?? DEFAULT_ALERT_RULES).map(rowOf));
  // Only the owner sets alert rules, as with limits; the rules in force are in "Alert explained".
  if (!rights.canEditLimits) return null;

  const save = (alertsConfig: { rules: AlertRule[] } | null) => void stores.detail.getState().save('alertRules', { alertsConfig });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    const parsed = rulesFromForm(rows);
    if ('error' in parsed) {
      stores.detail.getState().refuse('alertRules', parsed.error);
      return;
    }
    if (own !== null && JSON.stringify(own) === JSON.stringify(parsed.rules)) {
      stores.detail.getState().refuse('alertRules', 'Nothing changed.');
      return;
    }
    stores.detail.getState().refuse('alertRules', null);
    save({ rules: parsed.rules });
  };
  // An edit of the form makes the last refusal stale.
  const edit = (next: RuleRow[]) => {
    stores.detail.getState().refuse('alertRules', null);
    setRows(next);
  };
  const change = (at: number, part: Partial<RuleRow>) => edit(rows.map((row, i) => (i === at ? { ...row, ...part } : row)));

  return (
    <section className="panel" aria-labelledby="alert-rules-title">
      <h3 id="alert-rules-title">Alert rules</h3>
      <p className="muted small">{own === null ? 'The report uses the default rules.' : 'The report has rules of its own.'}</p>
      <form onSubmit={submit} data-testid="alert-rules-form">
        <ol className="rule-rows">
          {rows.map((row, i) => (
            <li key={i} className="form-row" data-testid="alert-rule-row">
              <label className="field">
                <span className="field__label">Alert</span>
                <select name="rule-level" value={row.level} onChange={(e) => change(i, { level: e.target.value as RuleRow['level'] })}>
                  <option value="1">{alertLevelInfo(1).label}</option>
                  <option value="2">{alertLevelInfo(2).label}</option>
                </select>
              </label>
              <label className="field">
                <span className="field__label">once out of limits for</span>
                <span className="input-unit">
                  <input name="rule-minutes" inputMode="decimal" value={row.minutes} onChange={(e) => change(i, { minutes: e.target.value })} />
                  <span>min</span>
                </span>
              </label>
              <label className="field">
                <span className="field__label">counted</span>
                <select name="rule-kind" value={row.kind} onChange={(e) => change(i, { kind: e.target.value as AlertRule['kind'] })}>
                  {(Object.keys(KIND_WORDS) as AlertRule['kind'][]).map((kind) => (
                    <option key={kind} value={kind}>
                      {KIND_WORDS[kind]}
                    </option>
                  ))}
                </select>
              </label>
              <button type="button" className="button button--quiet" onClick={() => edit(rows.filter((_, j) => j !== i))}>
                Remove
              </button>
            </li>
          ))}
        </ol>
        <div className="form-row">
          <button type="button" className="button" onClick={() => edit([...rows, { level: '2', kind: 'cumulative', minutes: '60' }])}>
            Add a rule
          </button>
          {own !== null && (
            <button type="button" className="button" disabled={saving} onClick={() => save(null)}>
              Use the default rules
            </button>
          )}
          <button type="submit" className="button button--primary" disabled={saving}>
            {saving ? 'Saving…' : 'Save alert rules'}
          </button>
        </div>
      </form>
      <p className="muted small">0 min raises the alert at the first reading out of limits. Saving recalculates the alert level from the readings already taken.</p>
      <SaveMessage section="alertRules" />
    </section>
  );
}
