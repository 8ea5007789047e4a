/**
 * Settings › Sync: which remote LabelDesk mirrors, with which key and as which company; a test
 * of the connection before saving, "Sync now" and "Turn off"; then the conflicts and the edits
 * the remote refused. The key field is a password field that is never filled back: the service
 * only says whether it has one.
 */
import { useEffect, useRef, useState } from 'react';
import type { FormEvent } from 'react';
import { asSentence, stateExplanation, STATE_TEXT } from '../lib/sync-text';
import { stores, useConnection, useSync } from '../state/stores';
import { ConfirmAction } from './ConfirmAction';
import { ErrorBanner } from './ErrorBanner';
import { ReadOnlyReason } from './SaveMessage';
import { SyncConflicts } from './SyncConflicts';
import './sync.css';

function KeyNote({ hasKey }: { hasKey: boolean }) {
  const storage = useSync((s) => s.keyStorage);
  const kept = useSync((s) => s.keyKept);
  if (storage === 'desktop') {
    return (
      <p className="muted small" data-testid="sync-key-note">
        {kept
          ? 'A key is kept on this computer, encrypted by the operating system, and used at every start. Type a new one to replace it.'
          : hasKey
            ? 'The service has a key for this session; it is not kept for the next start.'
            : 'The key is kept on this computer, encrypted by the operating system; it is never shown again.'}
      </p>
    );
  }
  return (
    <p className="muted small" data-testid="sync-key-note">
      {hasKey ? 'The service has a key. ' : ''}
      Outside the desktop app the key is kept by the service in memory only, until it restarts; then it must be entered again (or given to{' '}
      <code>labeldesk serve</code> through <code>LABELDESK_REMOTE_KEY</code>).
    </p>
  );
}

function StatusLine() {
  const status = useSync((s) => s.status);
  const checkedAt = useSync((s) => s.checkedAt) ?? 0;
  if (!status) return null;
  return (
    <p className="sync-status-line" data-testid="sync-status-line">
      <strong>{STATE_TEXT[status.state]}.</strong> {stateExplanation(status, checkedAt)}
      {status.lastError && status.state !== 'idle' && (
        <>
          {' '}
          <span className="sync-status-line__error">Last error: {asSentence(status.lastError.message)}</span>
        </>
      )}
    </p>
  );
}

export function SyncSettings() {
  const canManage = useConnection((s) => s.session?.permissions.includes('sync:manage') ?? false);
  const settings = useSync((s) => s.settings);
  const settingsError = useSync((s) => s.settingsError);
  const configured = useSync((s) => s.status?.configured ?? false);
  const busy = useSync((s) => s.busy);
  const testResult = useSync((s) => s.testResult);
  const notice = useSync((s) => s.notice);
  const reveal = useSync((s) => s.revealRequested);
  const [remoteUrl, setRemoteUrl] = useState('');
  const [remoteKey, setRemoteKey] = useState('');
  const [companyId, setCompanyId] = useState('');
  const touched = useRef(false);
  const section = useRef<HTMLElement>(null);

  useEffect(() => {
    void stores.sync.getState().loadSettings();
    return stores.sync.getState().watchLists();
  }, []);
  // What the service has, until the person starts typing.
  useEffect(() => {
    if (!settings || touched.current) return;
    setRemoteUrl(settings.remoteUrl ?? '');
    setCompanyId(settings.companyId ?? '');
  }, [settings]);
  useEffect(() => {
    if (!reveal) return;
    section.current?.scrollIntoView({ block: 'start' });
    section.current?.focus();
    stores.sync.setState({ revealRequested: false });
  }, [reveal]);

  const edit = (set: (v: string) => void) => (v: string) => {
    touched.current = true;
    set(v);
  };
  const input = () => ({ remoteUrl, remoteKey, companyId });

  const test = async () => {
    const result = await stores.sync.getState().test(input());
    if (result?.ok && result.companyId && companyId.trim() === '') setCompanyId(result.companyId);
  };
  const save = async (e: FormEvent) => {
    e.preventDefault();
    if (await stores.sync.getState().save(input())) {
      // The key is never shown back.
      setRemoteKey('');
      touched.current = false;
    }
  };

  return (
    <section className="panel sync-settings" aria-labelledby="sync-title" data-testid="sync-settings" ref={section} tabIndex={-1}>
      <h3 id="sync-title">Sync with a remote</h3>
      <p className="muted">
        This computer keeps a copy of the reports a remote LabelDesk (the company’s shared server or the cloud service) shows to one API key, and sends the
        edits made here back to it. It works offline: edits wait here until the remote can be reached.
      </p>
      <StatusLine />
      {settingsError && <ErrorBanner message={settingsError} onRetry={() => void stores.sync.getState().loadSettings()} />}
      {!canManage && <ReadOnlyReason reason="this key cannot change sync settings or resolve conflicts (it lacks the sync:manage permission)." />}
      <form className="sync-form" onSubmit={save} data-testid="sync-form">
        <fieldset disabled={!canManage || busy !== null} className="sync-form__fields">
          <label className="field field--grow">
            <span className="field__label">Remote address</span>
            <input
              name="remoteUrl"
              type="url"
              value={remoteUrl}
              onChange={(e) => edit(setRemoteUrl)(e.target.value)}
              placeholder="https://labels.example.com"
              autoComplete="off"
              spellCheck={false}
              required
            />
          </label>
          <label className="field field--grow">
            <span className="field__label">Remote API key</span>
            <input
              name="remoteKey"
              type="password"
              value={remoteKey}
              onChange={(e) => edit(setRemoteKey)(e.target.value)}
              placeholder={settings?.hasKey ? 'A key is set; leave empty to keep it' : 'The key the remote gave this company'}
              autoComplete="new-password"
              spellCheck={false}
            />
          </label>
          <label className="field">
            <span className="field__label">Company (optional)</span>
            <input
              name="companyId"
              value={companyId}
              onChange={(e) => edit(setCompanyId)(e.target.value)}
              placeholder="from the remote"
              autoComplete="off"
              spellCheck={false}
            />
          </label>
        </fieldset>
        <KeyNote hasKey={settings?.hasKey ?? false} />
        <div className="sync-form__buttons">
          <button type="button" className="button" disabled={!canManage || busy !== null || remoteUrl.trim() === ''} onClick={() => void test()}>
            {busy === 'test' ? 'Testing…' : 'Test connection'}
          </button>
          <button type="submit" className="button button--primary" disabled={!canManage || busy !== null}>
            {busy === 'save' ? 'Saving…' : 'Save and sync'}
          </button>
          <button type="button" className="button" disabled={!canManage || busy !== null || !configured} onClick={() => void stores.sync.getState().syncNow()}>
            {busy === 'sync' ? 'Starting…' : 'Sync now'}
          </button>
          {configured && canManage && (
            <ConfirmAction
              label="Turn off…"
              question="Stop syncing with the remote? The reports stay on this computer."
              confirmLabel="Yes, turn off"
              busy={busy === 'off'}
              onConfirm={() => stores.sync.getState().turnOff()}
            />
          )}
        </div>
        {testResult && (
          <p className={testResult.ok ? 'save-message save-message--ok' : 'save-message save-message--error'} role={testResult.ok ? 'status' : 'alert'} data-testid="sync-test-result">
            {asSentence(testResult.message)}
            {testResult.ok && testResult.companyId ? ` Company: ${testResult.companyId}.` : ''}
          </p>
        )}
        {notice && (
          <p className={notice.ok ? 'save-message save-message--ok' : 'save-message save-message--error'} role={notice.ok ? 'status' : 'alert'} data-testid="sync-notice">
            {notice.text}
          </p>
        )}
      </form>
      <SyncConflicts canManage={canManage} />
    </section>
  );
}
