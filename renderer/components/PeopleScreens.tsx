/**
 * The people at the desk: the sign-in screen once the company has people, the screen that has a
 * person choose a new password before anything else (when an administrator chose or reset it, or
 * it expired), the lock screen after inactivity (over the page, which keeps its state, asking only
 * for the password), the idle timer that locks it, and the first administrator's form while nobody
 * signs in yet.
 */
import { useEffect, useState } from 'react';
import type { FormEvent } from 'react';
import { peopleClient } from '../api/people-client';
import { plainProblem } from '../lib/problem-text';
import { personText } from '../lib/history-text';
import { stores, useConnection } from '../state/stores';
import { ErrorBanner } from './ErrorBanner';
import { PERMISSIONS } from '../../schema/report';
import type { CompanySettingsAnswer } from '../api/people-client';
import { changeReasonText, newPasswordProblem, passwordRulesText } from '../lib/password-rules';

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

/**
 * While the session may do nothing but change its password: the company's rules first, then the
 * current password and the new one twice. Length and the second typing are judged here before
 * anything is sent; reuse only the service can judge, and its refusal is shown in its words.
 */
export function ChangePasswordScreen() {
  const client = useConnection((s) => s.client);
  const due = useConnection((s) => s.session?.passwordChangeDue);
  const person = useConnection((s) => s.session?.person);
  const [rules, setRules] = useState<CompanySettingsAnswer | null>(null);
  const [current, setCurrent] = useState('');
  const [next, setNext] = useState('');
  const [again, setAgain] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  useEffect(() => {
    if (!client) return;
    const abort = new AbortController();
    // Without the rules the form still works: the service judges the length as well.
    peopleClient(client)
      .settings(abort.signal)
      .then(setRules, () => undefined);
    return () => abort.abort();
  }, [client]);
  if (!due) return null;
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const problem = newPasswordProblem(next, again, rules?.passwordMinLength ?? null);
    if (problem) {
      setError(problem);
      return;
    }
    setBusy(true);
    const refusal = await stores.connection.getState().changePassword(current, next);
    setBusy(false);
    if (refusal) {
      setError(refusal);
      setNext('');
      setAgain('');
      setCurrent('');
    }
  };
  return (
    <main className="connect" data-testid="change-password">
      <h1>Choose a new password</h1>
      <p data-testid="change-password-why">
        {person ? `${personText(person)}: ` : ''}
        {changeReasonText(due, rules)}
      </p>
      {rules && (
        <>
          <p id="password-rules-title">The new password has:</p>
          <ul aria-labelledby="password-rules-title" data-testid="password-rules">
            {passwordRulesText(rules).map((line) => (
              <li key={line}>{line}</li>
            ))}
          </ul>
        </>
      )}
      {error && <ErrorBanner message={error} />}
      <form onSubmit={submit} className="connect__form connect__form--stacked" data-testid="change-password-form">
        <input type="text" name="username" autoComplete="username" value={person?.login ?? ''} readOnly hidden />
        <label className="field">
          <span className="field__label">Current password</span>
          <input name="current-password" type="password" autoComplete="current-password" value={current} onChange={(e) => setCurrent(e.target.value)} autoFocus required />
        </label>
        <label className="field">
          <span className="field__label">New password</span>
          <input name="new-password" type="password" autoComplete="new-password" value={next} onChange={(e) => setNext(e.target.value)} required />
        </label>
        <label className="field">
          <span className="field__label">New password again</span>
          <input name="new-password-again" type="password" autoComplete="new-password" value={again} onChange={(e) => setAgain(e.target.value)} required />
        </label>
        <div className="review-form__row">
          <button type="submit" className="button button--primary" disabled={busy}>
            {busy ? 'Changing…' : 'Change password and go on'}
          </button>
          <SignOutButton />
        </div>
      </form>
    </main>
  );
}

/** Leaves a screen that holds the person (the lock, a change due) without doing what it asks. */
function SignOutButton() {
  return (
    <button type="button" className="button" onClick={() => void stores.connection.getState().signOutPerson()}>
      Sign out
    </button>
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
          <SignOutButton />
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
 * administrator here, the password typed twice; then that person signs in.
 */
export function FirstAdmin() {
  const session = useConnection((s) => s.session);
  const client = useConnection((s) => s.client);
  const [open, setOpen] = useState(false);
  const [login, setLogin] = useState('');
  const [name, setName] = useState('');
  const [password, setPassword] = useState('');
  const [again, setAgain] = useState('');
  const [minLength, setMinLength] = useState<number | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    if (!open || !client) return;
    const abort = new AbortController();
    // The company's least length, said in the label; the service judges it either way.
    peopleClient(client)
      .settings(abort.signal)
      .then((settings) => setMinLength(settings.passwordMinLength), () => undefined);
    return () => abort.abort();
  }, [open, client]);
  // Only a key holding every permission may make an administrator (nobody grants more than they hold).
  if (!session || session.person || session.hasPeople !== false || session.permissions.length < ALL_PERMISSIONS || !client) return null;
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    // A mistyped password would lock the company's only administrator out: typed twice, checked here.
    const problem = newPasswordProblem(password, again, minLength);
    if (problem) {
      setError(problem);
      return;
    }
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
        <form onSubmit={submit} className="connect__form connect__form--stacked" data-testid="first-admin-form">
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
            <span className="field__label">{minLength === null ? 'Password' : `Password (at least ${minLength} characters)`}</span>
            <input name="password" type="password" autoComplete="new-password" value={password} onChange={(e) => setPassword(e.target.value)} required />
          </label>
          <label className="field">
            <span className="field__label">Password again</span>
            <input name="password-again" type="password" autoComplete="new-password" value={again} onChange={(e) => setAgain(e.target.value)} required />
          </label>
          <div className="review-form__row">
            <button type="submit" className="button button--primary">
              Create and sign in
            </button>
          </div>
        </form>
      )}
    </div>
  );
}
