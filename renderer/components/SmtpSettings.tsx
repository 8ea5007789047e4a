/**
 * Settings › E-mail for alarms: the desk's SMTP relay (host, port, security, login, sender)
 * and a test mail whose answer from the relay is shown in words. The password field is never
 * filled back: the service only says whether it holds one ("kept"). In the desktop app the
 * password is also kept on this computer, encrypted by the operating system, and handed to the
 * service at every start; elsewhere the service holds it until it restarts. The relay is asked
 * for only once the person opens the form: unset, the service answers 404, which the browser
 * logs as an error on every visit to Settings.
 */
import { useCallback, useEffect, useState } from 'react';
import type { FormEvent } from 'react';
import { SMTP_SECURITY } from '../../schema/alarms';
import { alarmsClient, type SmtpSettings, type SmtpTestResult } from '../api/alarms-client';
import { plainProblem } from '../lib/problem-text';
import { useConnection } from '../state/stores';
import { ProblemMessage, ReadOnlyReason } from './SaveMessage';

type Security = (typeof SMTP_SECURITY)[number];

const SECURITY_TEXT: Record<Security, string> = {
  none: 'None (plain SMTP)',
  starttls: 'STARTTLS (usually port 587)',
  tls: 'TLS (usually port 465)',
};

const PORT_OF: Record<Security, string> = { none: '25', starttls: '587', tls: '465' };

interface Form {
  host: string;
  port: string;
  security: Security;
  user: string;
  password: string;
  from: string;
  appUrl: string;
}

const EMPTY: Form = { host: '', port: PORT_OF.starttls, security: 'starttls', user: '', password: '', from: '', appUrl: '' };

function formOf(smtp: SmtpSettings): Form {
  return { host: smtp.host, port: String(smtp.port), security: smtp.security, user: smtp.user ?? '', password: '', from: smtp.from, appUrl: smtp.appUrl ?? '' };
}

/** What is wrong with the form, in words, before anything is sent. */
function formProblem(form: Form): string | null {
  if (form.host.trim() === '') return 'Name the relay’s host, e.g. smtp.example.com.';
  const port = Number(form.port);
  if (!Number.isInteger(port) || port < 1 || port > 65535) return 'The port is a whole number from 1 to 65535.';
  if (!/^[^\s@]+@[^\s@]+$/.test(form.from.trim())) return 'Give the sender’s address, e.g. alarms@example.com.';
  if (form.appUrl.trim() !== '' && !/^https?:\/\/\S+$/.test(form.appUrl.trim())) return 'The link address starts with http:// or https://.';
  return null;
}

function answerText(result: SmtpTestResult): string {
  const text = result.message.charAt(0).toUpperCase() + result.message.slice(1);
  return /[.!?]$/.test(text) ? text : `${text}.`;
}

export function SmtpSettingsPanel() {
  const client = useConnection((s) => s.client);
  const canManage = useConnection((s) => s.session?.permissions.includes('webhooks:manage') ?? false);
  const bridge = typeof window === 'undefined' ? undefined : window.labeldesk;
  const [smtp, setSmtp] = useState<SmtpSettings | null | undefined>(undefined);
  const [form, setForm] = useState<Form>(EMPTY);
  const [kept, setKept] = useState<boolean | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [saved, setSaved] = useState<string | null>(null);
  const [busy, setBusy] = useState<'save' | 'test' | null>(null);
  const [to, setTo] = useState('');
  const [answer, setAnswer] = useState<SmtpTestResult | null>(null);
  const [open, setOpen] = useState(false);

  const load = useCallback(async () => {
    if (!client || !canManage) return;
    try {
      const current = await alarmsClient(client).smtp();
      setSmtp(current);
      if (current) setForm(formOf(current));
      if (bridge?.hasSmtpPassword) setKept(await bridge.hasSmtpPassword());
    } catch (err) {
      setProblem(plainProblem(err));
    }
  }, [client, canManage, bridge]);
  useEffect(() => {
    if (open) void load();
  }, [open, load]);
  if (!client) return null;

  const edit = (field: keyof Form) => (value: string) => {
    setSaved(null);
    setForm((f) => ({ ...f, [field]: value, ...(field === 'security' && f.port === PORT_OF[f.security] ? { port: PORT_OF[value as Security] } : {}) }));
  };

  const save = async (e: FormEvent) => {
    e.preventDefault();
    const wrong = formProblem(form);
    setProblem(wrong);
    setSaved(null);
    if (wrong) return;
    setBusy('save');
    try {
      const password = form.password === '' ? undefined : form.password;
      const answer = await alarmsClient(client).saveSmtp({
        host: form.host.trim(),
        port: Number(form.port),
        security: form.security,
        user: form.user.trim() === '' ? null : form.user.trim(),
        password,
        from: form.from.trim(),
        appUrl: form.appUrl.trim() === '' ? null : form.appUrl.trim(),
      });
      let note = 'Saved.';
      if (password !== undefined && bridge?.saveSmtpPassword) {
        const keeping = await bridge.saveSmtpPassword(password);
        setKept(keeping.saved);
        if (!keeping.saved) note = `Saved. ${keeping.reason}`;
      }
      setSmtp(answer);
      setForm(formOf(answer));
      setSaved(note);
    } catch (err) {
      setProblem(plainProblem(err));
    } finally {
      setBusy(null);
    }
  };

  const test = async () => {
    setAnswer(null);
    if (!/^[^\s@]+@[^\s@]+$/.test(to.trim())) return setProblem('Give the address the test mail goes to.');
    setProblem(null);
    setBusy('test');
    try {
      setAnswer(await alarmsClient(client).testSmtp(to.trim()));
    } catch (err) {
      setProblem(plainProblem(err));
    } finally {
      setBusy(null);
    }
  };

  const passwordNote = smtp?.hasPassword
    ? kept
      ? 'A password is kept on this computer, encrypted by the operating system, and given to the service at every start. Type a new one to replace it.'
      : bridge?.saveSmtpPassword
        ? 'The service holds a password for this session; it is not kept for the next start.'
        : 'The service holds a password until it restarts; then it must be given again (or to labeldesk serve through LABELDESK_SMTP_PASSWORD).'
    : null;

  return (
    <section className="panel" aria-labelledby="smtp-title" data-testid="smtp-settings">
      <h3 id="smtp-title">E-mail for alarms</h3>
      <p className="muted">Alarm e-mails go out through the company’s SMTP relay. The password is never shown again, and never written to the database.</p>
      {!canManage ? (
        <ReadOnlyReason reason="this key cannot change the relay (it lacks the webhooks:manage permission)." />
      ) : !open ? (
        <button type="button" className="button" onClick={() => setOpen(true)}>
          Relay settings…
        </button>
      ) : (
        <>
          <form className="form-row" onSubmit={save} data-testid="smtp-form">
            <fieldset disabled={busy !== null || smtp === undefined} className="sync-form__fields">
              <label className="field field--grow">
                <span className="field__label">Host</span>
                <input name="smtpHost" value={form.host} onChange={(e) => edit('host')(e.target.value)} placeholder="smtp.example.com" autoComplete="off" spellCheck={false} />
              </label>
              <label className="field">
                <span className="field__label">Port</span>
                <input name="smtpPort" inputMode="numeric" value={form.port} onChange={(e) => edit('port')(e.target.value)} size={6} />
              </label>
              <label className="field">
                <span className="field__label">Security</span>
                <select name="smtpSecurity" value={form.security} onChange={(e) => edit('security')(e.target.value)}>
                  {SMTP_SECURITY.map((s) => (
                    <option key={s} value={s}>
                      {SECURITY_TEXT[s]}
                    </option>
                  ))}
                </select>
              </label>
              <label className="field">
                <span className="field__label">User (optional)</span>
                <input name="smtpUser" value={form.user} onChange={(e) => edit('user')(e.target.value)} autoComplete="off" spellCheck={false} />
              </label>
              <label className="field">
                <span className="field__label">Password</span>
                <input
                  name="smtpPassword"
                  type="password"
                  value={form.password}
                  onChange={(e) => edit('password')(e.target.value)}
                  placeholder={smtp?.hasPassword ? 'kept' : 'none given'}
                  autoComplete="new-password"
                  data-testid="smtp-password"
                />
              </label>
              <label className="field field--grow">
                <span className="field__label">From address</span>
                <input name="smtpFrom" type="email" value={form.from} onChange={(e) => edit('from')(e.target.value)} placeholder="alarms@example.com" spellCheck={false} />
              </label>
              <label className="field field--grow">
                <span className="field__label">Link address in mails (optional)</span>
                <input name="smtpAppUrl" value={form.appUrl} onChange={(e) => edit('appUrl')(e.target.value)} placeholder="this service’s own address" spellCheck={false} />
              </label>
              <button type="submit" className="button button--primary">
                {busy === 'save' ? 'Saving…' : 'Save relay'}
              </button>
            </fieldset>
          </form>
          {smtp?.hasPassword && (
            <p className="muted small" data-testid="smtp-password-state">
              Password: kept. {passwordNote}
            </p>
          )}
          {saved && (
            <p className="save-message" role="status" data-testid="smtp-saved">
              {saved}
            </p>
          )}
          <form
            className="form-row"
            data-testid="smtp-test-form"
            onSubmit={(e) => {
              e.preventDefault();
              void test();
            }}
          >
            <label className="field field--grow">
              <span className="field__label">Send a test mail to</span>
              <input name="smtpTestTo" type="email" value={to} onChange={(e) => setTo(e.target.value)} placeholder="you@example.com" disabled={!smtp} />
            </label>
            <button type="submit" className="button" disabled={!smtp || busy !== null}>
              {busy === 'test' ? 'Sending…' : 'Send test mail'}
            </button>
          </form>
          {!smtp && smtp !== undefined && <p className="muted small">Save a relay first; the test mail goes through the relay as saved.</p>}
          {answer && (
            <p className={`save-message${answer.ok ? '' : ' save-message--error'}`} role="status" data-testid="smtp-test-answer" data-ok={answer.ok}>
              {answer.ok ? 'Sent: ' : 'Not sent: '}
              {answerText(answer)}
            </p>
          )}
          <ProblemMessage problem={problem} />
        </>
      )}
    </section>
  );
}
