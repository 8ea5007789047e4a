/**
 * Asking for an API key when none came with the app, a link or this window's session. The key
 * stays in sessionStorage only: closing the window forgets it, which suits a shared desk.
 */
import { useState } from 'react';
import type { FormEvent } from 'react';
import { browserEnv } from '../state/connection';
import { stores, useConnection } from '../state/stores';
import { ErrorBanner } from './ErrorBanner';

export function ConnectScreen() {
  const error = useConnection((s) => s.error);
  const unreachable = useConnection((s) => s.unreachable);
  const busy = useConnection((s) => s.connecting);
  const baseUrl = useConnection((s) => s.baseUrl);
  const notice = useConnection((s) => s.notice);
  const [key, setKey] = useState('');

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (await stores.connection.getState().connectWithKey(key, browserEnv())) setKey('');
  };

  return (
    <main className="connect">
      <h1>LabelDesk</h1>
      <p>Cold-chain label reports of your company. Enter the API key you were given to start.</p>
      {notice && (
        <p className="note note--locked" role="status" data-testid="connect-notice">
          {notice}
        </p>
      )}
      {error && (
        <ErrorBanner
          message={error}
          onRetry={unreachable ? () => void stores.connection.getState().resolve(browserEnv()) : undefined}
        />
      )}
      <form onSubmit={submit} className="connect__form" data-testid="connect-form">
        <label className="field field--grow">
          <span className="field__label">API key</span>
          <input
            name="apiKey"
            type="password"
            autoComplete="off"
            spellCheck={false}
            value={key}
            onChange={(e) => setKey(e.target.value)}
            autoFocus
          />
        </label>
        <button type="submit" className="button button--primary" disabled={busy}>
          {busy ? 'Connecting…' : 'Connect'}
        </button>
      </form>
      <p className="muted small">Service: {baseUrl || window.location.origin}</p>
    </main>
  );
}
