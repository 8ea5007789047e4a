/**
 * The people at the desk: the sign-in screen once the company has people, the lock screen after
 * inactivity (over the page, which keeps its state, asking only for the password), the idle timer
 * that locks it, and the first administrator's form while nobody signs in yet.
 */
import { useEffect, useState } from 'react';
import type { FormEvent } from 'react';
import { peopleClient } from '../api/people-client';
import { plainProblem } from '../lib/problem-text';
import { personText } from '../lib/history-text';
import { stores, useConnection } from '../state/stores';
import { ErrorBanner } from './ErrorBanner';
import { PERMISSIONS } from '../../schema/report';

const ALL_PERMISSIONS = PERMISSIONS.length;

export function SignInScreen() {
  const company = useConnection((s) => s.session?.companyName ?? '');
  const [login, setLogin] = useState('');
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setBusy(true);
    const refusal = await stores.connection.getState().signInPerson(login.trim(), password);
    setBusy(false);
    setPassword('');
    setError(refusal);
  };
  return (
    <main className="connect">
      <h1>LabelDesk</h1>
      <p>Sign in to work on the label reports of {company}. Your signatures carry your name.</p>
      {error && <ErrorBanner message={error} />}
      <form onSubmit={submit} className="connect__form" data-testid="sign-in-form">
        <label className="field">
          <span className="field__label">Login</span>
          <input name="login" autoComplete="username" value={login} onChange={(e) => setLogin(e.target.value)} autoFocus required />
        </label>
        <label className="field">
          <span className="field__label">Password</span>
          <input name="password" type="password" autoComplete="current-password" value={password} onChange={(e) => setPassword(e.target.value)} required />
        </label>
        <button type="submit" className="button button--primary" disabled={busy}>
          {busy ? 'Signing in…' : 'Sign in'}
        </button>
      </form>
      <p className="muted small">After 5 failed attempts in a row an account locks until an administrator unlocks it.</p>
    </main>
  );
}

/** Over the page: only the same person's password opens it again. */
export function LockScreen() {
  const person = useConnection((s) => s.session?.person);
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string | null>(null);
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const refusal = await stores.connection.getState().unlock(password);
    setPassword('');
    setError(refusal);
  };
  return (
    <div className="dialog-backdrop">
      <form className="dialog" role="dialog" aria-modal="true" aria-labelledby="lock-title" onSubmit={submit} data-testid="lock-screen">
        <h2 id="lock-title">Locked</h2>
        <p>
          The session of {person ? personText(person) : 'this person'} locked after inactivity. Enter the password to go on where you left off.
        </p>
        {error && <ErrorBanner message={error} />}
        <label className="field">
          <span className="field__label">Password</span>
          <input name="unlock-password" type="password" autoComplete="current-password" value={password} onChange={(e) => setPassword(e.target.value)} autoFocus required />
        </label>
        <div className="review-form__row">
          <button type="submit" className="button button--primary">
            Unlock
          </button>
          <button type="button" className="button" onClick={() => void stores.connection.getState().signOutPerson()}>
            Sign out
          </button>
        </div>
      </form>
    </div>
  );
}

/** Locks the page after the company's idle time without a key press, click or scroll. */
export function useIdleLock(): void {
  const signedIn = useConnection((s) => s.session?.person !== undefined);
  const locked = useConnection((s) => s.locked);
  const minutes = useConnection((s) => s.lockAfterMinutes);
  useEffect(() => {
    if (!signedIn || locked) return;
    let timer = setTimeout(fire, minutes * 60_000);
    function fire() {
      stores.connection.getState().lock();
    }
    const activity = () => {
      stores.connection.getState().personActive(Date.now());
      clearTimeout(timer);
      timer = setTimeout(fire, minutes * 60_000);
    };
    const events = ['pointerdown', 'keydown', 'wheel'] as const;
    for (const name of events) window.addEventListener(name, activity, { passive: true });
    return () => {
      clearTimeout(timer);
      for (const name of events) window.removeEventListener(name, activity);
    };
  }, [signedIn, locked, minutes]);
}

export function PersonBadge() {
  const person = useConnection((s) => s.session?.person);
  if (!person) return null;
  return (
    <span className="app-header__person" data-testid="header-person">
      <span className="app-header__person-name" title={`Signed in: ${personText(person)}`}>
        {personText(person)}
      </span>
      <button type="button" className="button button--small" onClick={() => void stores.connection.getState().signOutPerson()}>
        Sign out
      </button>
    </span>
  );
}

/**
 * While the company has nobody who signs in, a key that may manage keys makes the first
 * administrator here; then that person signs in.
 */
export function FirstAdmin() {
  const session = useConnection((s) => s.session);
  const client = useConnection((s) => s.client);
  const [open, setOpen] = useState(false);
  const [login, setLogin] = useState('');
  const [name, setName] = useState('');
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string | null>(null);
  // Only a key holding every permission may make an administrator (nobody grants more than they hold).
  if (!session || session.person || session.hasPeople !== false || session.permissions.length < ALL_PERMISSIONS || !client) return null;
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    try {
      await peopleClient(client).createUser({ login: login.trim(), name: name.trim(), role: 'admin', password });
      const refusal = await stores.connection.getState().signInPerson(login.trim(), password);
      setError(refusal);
    } catch (err) {
      setError(plainProblem(err));
    }
  };
  return (
    <div className="first-admin" data-testid="first-admin">
      {!open ? (
        <p>
          Nobody signs in yet: acknowledgements and decisions are not signed by a person.{' '}
          <button type="button" className="button button--small" onClick={() => setOpen(true)}>
            Set up the first administrator
          </button>
        </p>
      ) : (
        <form onSubmit={submit} className="connect__form" data-testid="first-admin-form">
          <h2>The first administrator</h2>
          <p className="small">They manage the people of {session.companyName}. From then on people sign in, and only people sign.</p>
          {error && <ErrorBanner message={error} />}
          <label className="field">
            <span className="field__label">Printed name</span>
            <input name="name" value={name} onChange={(e) => setName(e.target.value)} required />
          </label>
          <label className="field">
            <span className="field__label">Login</span>
            <input name="login" autoComplete="username" value={login} onChange={(e) => setLogin(e.target.value)} required />
          </label>
          <label className="field">
            <span className="field__label">Password (at least 10 characters)</span>
            <input name="password" type="password" autoComplete="new-password" value={password} onChange={(e) => setPassword(e.target.value)} required />
          </label>
          <button type="submit" className="button button--primary">
            Create and sign in
          </button>
        </form>
      )}
    </div>
  );
}
