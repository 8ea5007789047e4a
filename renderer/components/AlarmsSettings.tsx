/**
 * Settings › Alarms (docs/alarms.md#in-the-app): the company's alarm rules (which reports, who is
 * told first and next, through which channels, after how long it escalates), a test notification
 * of each rule through the relay, and the company's quiet hours and daily digest. Each form is
 * judged with the API's own schema before it is sent, and the service's refusal is shown in its
 * words. Managing needs webhooks:manage, as the API does; others read.
 */
import { useCallback, useEffect, useState } from 'react';
import type { FormEvent } from 'react';
import { alarmSettingsSchema } from '../../schema/alarms';
import { alarmsClient, type AlarmRuleAnswer, type AlarmSettings, type RuleTestResult } from '../api/alarms-client';
import { peopleClient, type UserInfoAnswer } from '../api/people-client';
import { CheckboxGroup } from './CheckboxGroup';
import { CHANNEL_WORDS, EMPTY_RULE_FORM, formOfRule, ruleBodyOf, type AlarmRuleForm } from '../lib/alarm-rule-form';
import { plainZodError } from '../lib/plain-words';
import { plainProblem } from '../lib/problem-text';
import { useConnection } from '../state/stores';
import { ProblemMessage, ReadOnlyReason } from './SaveMessage';

const LEVEL_WORDS = { 1: 'Moderate or Critical', 2: 'Critical' } as const;

/** How a rule names a person: by name and login, as Settings › People lists them. */
const personWords = (people: readonly UserInfoAnswer[], id: string) => {
  const person = people.find((p) => p.id === id);
  return person ? `${person.name} (${person.login})` : 'a person no longer listed';
};

function ruleSummary(rule: AlarmRuleAnswer, people: readonly UserInfoAnswer[]): string {
  const told = (step: AlarmRuleAnswer['steps'][number]) => [...step.users.map((id) => personWords(people, id)), ...step.emails];
  const when = `${LEVEL_WORDS[rule.minLevel]}${rule.filter ? `, where ${rule.filter}` : ''}${rule.customFields ? `, custom fields ${rule.customFields}` : ''}`;
  const first = rule.steps[0] ? told(rule.steps[0]).join(', ') : '';
  const next = rule.steps.length > 1 && rule.escalateAfterMinutes !== null ? `; after ${rule.escalateAfterMinutes} min without an acknowledgement: ${rule.steps.slice(1).flatMap(told).join(', ')}` : '';
  const channels = rule.channels.map((c) => CHANNEL_WORDS.find(([k]) => k === c)?.[1] ?? c).join(', ');
  return `${when}. Tells ${first || 'the company’s desks'}${next}. By ${channels.toLowerCase()}.`;
}

function testText(result: RuleTestResult): string {
  const mails = result.mails.map((m) => `${m.to}: ${m.ok ? 'sent' : 'not sent'} (${m.message})`);
  const desktop = result.desktopOnly.length > 0 ? [`on the desktop only: ${result.desktopOnly.join(', ')}`] : [];
  const all = [...mails, ...desktop];
  return all.length === 0 ? 'The first step e-mails nobody: the rule tells the desktops only.' : `Test notification: ${all.join('; ')}.`;
}

/**
 * The company's people to tick for a step, by name and login; a person without an e-mail address
 * is told on the desktop only, and says so. A person a stored rule names who is no longer listed
 * stays ticked until unticked.
 */
function PeoplePicker({ legend, people, picked, onChange }: { legend: string; people: readonly UserInfoAnswer[]; picked: string[]; onChange(next: string[]): void }) {
  const ids = [...people.filter((p) => !p.disabled).map((p) => p.id), ...picked.filter((id) => !people.some((p) => p.id === id && !p.disabled))];
  if (ids.length === 0) return null;
  const labels = Object.fromEntries(
    ids.map((id) => {
      const person = people.find((p) => p.id === id);
      return [id, person && !person.email ? `${personWords(people, id)}, no e-mail address: desktop only` : personWords(people, id)];
    }),
  );
  return <CheckboxGroup legend={legend} options={ids} labels={labels} checked={new Set(picked)} onChange={(next) => onChange(ids.filter((id) => next.has(id)))} />;
}

function RuleForm({ initial, stored, people, onSaved, onCancel }: { initial: AlarmRuleForm; stored?: AlarmRuleAnswer; people: readonly UserInfoAnswer[]; onSaved: () => void; onCancel?: () => void }) {
  const client = useConnection((s) => s.client);
  const [form, setForm] = useState(initial);
  const [problem, setProblem] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const set = <K extends keyof AlarmRuleForm>(key: K, value: AlarmRuleForm[K]) => setForm((f) => ({ ...f, [key]: value }));
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (!client) return;
    const made = ruleBodyOf(form);
    if ('problem' in made) return setProblem(made.problem);
    setProblem(null);
    setBusy(true);
    try {
      if (stored) await alarmsClient(client).updateRule(stored.id, made.body);
      else await alarmsClient(client).createRule(made.body);
      if (!stored) setForm(EMPTY_RULE_FORM);
      onSaved();
    } catch (err) {
      setProblem(plainProblem(err));
    } finally {
      setBusy(false);
    }
  };
  const text = (key: 'name' | 'filter' | 'customFields' | 'first' | 'next' | 'escalateAfterMinutes', label: string, hint?: string) => (
    <label className="field">
      <span className="field__label">{label}</span>
      <input name={`rule-${key}`} value={form[key]} onChange={(e) => set(key, e.target.value)} placeholder={hint} />
    </label>
  );
  return (
    <form className="alarm-rule-form" onSubmit={(e) => void submit(e)} data-testid="alarm-rule-form" aria-label={stored ? `Edit the rule ${stored.name}` : 'New alarm rule'}>
      <div className="form-row">
        {text('name', 'Name', 'e.g. Critical air freight')}
        <label className="field">
          <span className="field__label">Raised at</span>
          <select name="rule-minLevel" value={form.minLevel} onChange={(e) => set('minLevel', e.target.value as '1' | '2')}>
            <option value="2">Critical</option>
            <option value="1">Moderate or Critical</option>
          </select>
        </label>
        {text('filter', 'Only reports where (list filter)', 'e.g. mode[eq]airFreight')}
        {text('customFields', 'Custom fields', 'e.g. product[eq]vaccine')}
      </div>
      <div className="form-row">
        {text('first', 'Told first (addresses)', 'qa@example.com, …')}
        {text('next', 'Told next (addresses)', 'lead@example.com')}
        {text('escalateAfterMinutes', 'Escalate after (minutes)', 'e.g. 120')}
      </div>
      <div className="form-row">
        <PeoplePicker legend="People told first" people={people} picked={form.firstPeople} onChange={(ids) => set('firstPeople', ids)} />
        <PeoplePicker legend="People told next" people={people} picked={form.nextPeople} onChange={(ids) => set('nextPeople', ids)} />
      </div>
      <fieldset className="form-row">
        <legend>Channels</legend>
        {CHANNEL_WORDS.map(([channel, words]) => (
          <label key={channel}>
            <input
              type="checkbox"
              name={`rule-channel-${channel}`}
              checked={form.channels.includes(channel)}
              onChange={(e) => set('channels', e.target.checked ? [...form.channels, channel] : form.channels.filter((c) => c !== channel))}
            />{' '}
            {words}
          </label>
        ))}
        <label>
          <input type="checkbox" name="rule-enabled" checked={form.enabled} onChange={(e) => set('enabled', e.target.checked)} /> On
        </label>
      </fieldset>
      <ProblemMessage problem={problem} />
      <div className="form-actions">
        <button type="submit" className="button button--primary" disabled={busy}>
          {stored ? 'Save rule' : 'Add rule'}
        </button>
        {onCancel && (
          <button type="button" className="button" onClick={onCancel}>
            Cancel
          </button>
        )}
      </div>
    </form>
  );
}

function RuleItem({ rule, people, canManage, onChanged }: { rule: AlarmRuleAnswer; people: readonly UserInfoAnswer[]; canManage: boolean; onChanged: () => void }) {
  const client = useConnection((s) => s.client);
  const [editing, setEditing] = useState(false);
  const [note, setNote] = useState<{ ok: boolean; text: string } | null>(null);
  const [busy, setBusy] = useState(false);
  const run = async (work: () => Promise<string | null>) => {
    setBusy(true);
    setNote(null);
    try {
      const text = await work();
      if (text) setNote({ ok: true, text });
      else onChanged();
    } catch (err) {
      setNote({ ok: false, text: plainProblem(err) });
    } finally {
      setBusy(false);
    }
  };
  if (editing) return <RuleForm initial={formOfRule(rule)} stored={rule} people={people} onSaved={() => { setEditing(false); onChanged(); }} onCancel={() => setEditing(false)} />;
  return (
    <li className="alarm-rule" data-testid="alarm-rule" data-name={rule.name}>
      <p>
        <strong>{rule.name}</strong>
        {!rule.enabled && <span className="muted"> (off)</span>}: {ruleSummary(rule, people)}
      </p>
      {canManage && client && (
        <div className="review-form__row">
          <button type="button" className="button" disabled={busy} onClick={() => void run(async () => testText(await alarmsClient(client).testRule(rule.id)))}>
            Send a test notification
          </button>
          <button type="button" className="button" onClick={() => setEditing(true)}>
            Edit
          </button>
          <button type="button" className="button button--quiet" disabled={busy} onClick={() => void run(async () => (await alarmsClient(client).removeRule(rule.id), null))}>
            Remove
          </button>
        </div>
      )}
      {note && (
        <p className={`save-message save-message--${note.ok ? 'ok' : 'error'}`} role={note.ok ? 'status' : 'alert'} data-testid="alarm-rule-note">
          {note.text}
        </p>
      )}
    </li>
  );
}

function QuietAndDigest({ settings, canManage, onSaved }: { settings: AlarmSettings; canManage: boolean; onSaved: (s: AlarmSettings) => void }) {
  const client = useConnection((s) => s.client);
  const [zone, setZone] = useState(settings.zone);
  const [from, setFrom] = useState(settings.quietHours?.from ?? '');
  const [to, setTo] = useState(settings.quietHours?.to ?? '');
  const [at, setAt] = useState(settings.digest?.at ?? '');
  const [digestTo, setDigestTo] = useState(settings.digest?.to.join(', ') ?? '');
  const [problem, setProblem] = useState<string | null>(null);
  const [saved, setSaved] = useState(false);
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (!client) return;
    setSaved(false);
    if ((from === '') !== (to === '')) return setProblem('Quiet hours need both their start and their end, or neither.');
    const recipients = digestTo.split(/[\s,;]+/).filter((a) => a !== '');
    if ((at === '') !== (recipients.length === 0)) return setProblem('The digest needs both its time and who it goes to, or neither.');
    const parsed = alarmSettingsSchema.safeParse({
      zone: zone.trim() || 'UTC',
      quietHours: from === '' ? null : { from, to },
      digest: at === '' ? null : { at, to: recipients },
    });
    if (!parsed.success) return setProblem(plainZodError(parsed.error));
    setProblem(null);
    try {
      onSaved(await alarmsClient(client).saveSettings(parsed.data));
      setSaved(true);
    } catch (err) {
      setProblem(plainProblem(err));
    }
  };
  return (
    <form onSubmit={(e) => void submit(e)} data-testid="alarm-settings-form" aria-label="Quiet hours and digest">
      <fieldset className="form-row" disabled={!canManage}>
        <legend>Quiet hours and the daily digest</legend>
        <label className="field">
          <span className="field__label">Time zone (IANA)</span>
          <input name="alarm-zone" value={zone} onChange={(e) => setZone(e.target.value)} placeholder="Europe/Berlin" />
        </label>
        <label className="field">
          <span className="field__label">Quiet from</span>
          <input name="quiet-from" type="time" value={from} onChange={(e) => setFrom(e.target.value)} />
        </label>
        <label className="field">
          <span className="field__label">Quiet until</span>
          <input name="quiet-to" type="time" value={to} onChange={(e) => setTo(e.target.value)} />
        </label>
        <label className="field">
          <span className="field__label">Digest at</span>
          <input name="digest-at" type="time" value={at} onChange={(e) => setAt(e.target.value)} />
        </label>
        <label className="field">
          <span className="field__label">Digest to (addresses)</span>
          <input name="digest-to" value={digestTo} onChange={(e) => setDigestTo(e.target.value)} />
        </label>
      </fieldset>
      <p className="muted small">During quiet hours alarm e-mails wait until they end; the desktop still shows the alarm. The digest lists the alarms of the 24 hours before it.</p>
      <ProblemMessage problem={problem} />
      {saved && (
        <p className="save-message save-message--ok" role="status">
          Saved.
        </p>
      )}
      {canManage && (
        <button type="submit" className="button button--primary">
          Save quiet hours and digest
        </button>
      )}
    </form>
  );
}

export function AlarmsSettingsPanel() {
  const client = useConnection((s) => s.client);
  const canManage = useConnection((s) => s.session?.permissions.includes('webhooks:manage') ?? false);
  const [rules, setRules] = useState<AlarmRuleAnswer[] | null>(null);
  const [settings, setSettings] = useState<AlarmSettings | null>(null);
  const [people, setPeople] = useState<UserInfoAnswer[]>([]);
  const [problem, setProblem] = useState<string | null>(null);
  // While the service does not answer, the header says so once; this panel does not repeat it.
  const reachable = useConnection((s) => s.reachable);
  const load = useCallback(async () => {
    if (!client) return;
    try {
      const api = alarmsClient(client);
      // The people to pick from; a key that may not list them picks by address alone.
      const [r, s, p] = await Promise.all([api.rules(), api.settings(), peopleClient(client).listUsers().catch(() => [])]);
      setRules(r);
      setSettings(s);
      setPeople(p);
      setProblem(null);
    } catch (err) {
      setProblem(plainProblem(err));
    }
  }, [client]);
  useEffect(() => {
    void load();
  }, [load]);
  if (!client) return null;
  return (
    <section className="panel" aria-labelledby="alarms-settings-title" data-testid="alarms-settings">
      <h3 id="alarms-settings-title">Alarms</h3>
      <p className="muted small">
        A rule raises an alarm when a report’s alert rises to its level and the report matches its conditions; when nobody acknowledges the alert in time, the next people are
        told.
      </p>
      {!canManage && <ReadOnlyReason reason="managing alarm rules needs the webhooks:manage permission (an administrator holds it)." testId="alarms-settings-locked" />}
      <ProblemMessage problem={reachable ? problem : null} />
      {rules !== null && (rules.length === 0 ? <p data-testid="alarm-rules-empty">No alarm rules yet: reports with an alert raise no alarm.</p> : (
        <ul className="alarm-rules" data-testid="alarm-rules">
          {rules.map((rule) => (
            <RuleItem key={rule.id} rule={rule} people={people} canManage={canManage} onChanged={() => void load()} />
          ))}
        </ul>
      ))}
      {canManage && (
        <>
          <h4>New rule</h4>
          <RuleForm initial={EMPTY_RULE_FORM} people={people} onSaved={() => void load()} />
        </>
      )}
      {settings && <QuietAndDigest settings={settings} canManage={canManage} onSaved={setSettings} />}
    </section>
  );
}
