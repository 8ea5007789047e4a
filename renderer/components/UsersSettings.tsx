/**
 * The people of the company, for an administrator: who may sign in and with which role and
 * e-mail address (where alarm e-mails reach them); create, rename, change a role or address,
 * disable or enable, unlock after failed sign-ins, set a new password; the company's lock after
 * inactivity and four-eyes release; and its password rules (least length, expiry, no reuse, a
 * change forced when someone else chose the password), refused in words before anything is sent.
 */
import { useCallback, useEffect, useState } from 'react';
import type { FormEvent } from 'react';
import { userRoleSchema, type UserRoleName as UserRole } from '../../schema/people';
import { peopleClient, type CompanySettingsAnswer, type UserInfoAnswer } from '../api/people-client';
import { plainProblem } from '../lib/problem-text';
import { emailProblem, POLICY_NUMBER_NAMES, policyProblem, policyRange, type PolicyNumber } from '../lib/password-rules';
import { useConnection } from '../state/stores';
import { ErrorBanner } from './ErrorBanner';

const USER_ROLES = userRoleSchema.options;

const ROLE_TEXT: Record<UserRole, string> = {
  viewer: 'Viewer (reads, comments)',
  reviewer: 'Reviewer (also edits, acknowledges, holds, rejects)',
  approver: 'Approver (also releases)',
  admin: 'Administrator (also manages people, keys, webhooks, sync)',
};

export function UsersSettings() {
  const client = useConnection((s) => s.client);
  const isAdmin = useConnection((s) => s.session?.person?.role === 'admin');
  const [users, setUsers] = useState<UserInfoAnswer[] | null>(null);
  const [settings, setSettings] = useState<CompanySettingsAnswer | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [form, setForm] = useState({ login: '', name: '', role: 'reviewer' as UserRole, password: '', email: '' });
  // The person whose name and e-mail address are being changed, and what is typed.
  const [editing, setEditing] = useState<{ id: string; name: string; email: string } | null>(null);
  // The person whose password is being set, and what is typed: never a browser prompt, which
  // shows the password in clear and cannot say why it was refused.
  const [resetting, setResetting] = useState<{ id: string; password: string } | null>(null);
  const [notice, setNotice] = useState<string | null>(null);

  const load = useCallback(async () => {
    if (!client || !isAdmin) return;
    try {
      const api = peopleClient(client);
      setUsers(await api.listUsers());
      setSettings(await api.settings());
    } catch (err) {
      setError(plainProblem(err));
    }
  }, [client, isAdmin]);
  useEffect(() => void load(), [load]);
  if (!client || !isAdmin) return null;
  const api = peopleClient(client);

  const run = async (work: () => Promise<unknown>) => {
    setError(null);
    try {
      await work();
      await load();
    } catch (err) {
      setError(plainProblem(err));
    }
  };
  /** Refuses in words what the service would refuse, before sending; answers whether it did. */
  const refuse = (problem: string | null): boolean => {
    if (problem) setError(problem);
    return problem !== null;
  };
  const resetPassword = (e: FormEvent, user: UserInfoAnswer) => {
    e.preventDefault();
    if (!resetting) return;
    const { password } = resetting;
    setNotice(null);
    void run(async () => {
      const after = await api.resetPassword(user.id, password);
      setResetting(null);
      setNotice(
        after.passwordChangeDue === 'reset'
          ? `${user.name} signs in with the new password next, and then chooses their own.`
          : `${user.name} signs in with the new password from now on.`,
      );
    });
  };
  const saveEdit = (e: FormEvent, user: UserInfoAnswer) => {
    e.preventDefault();
    if (!editing || refuse(emailProblem(editing.email))) return;
    const email = editing.email.trim() === '' ? null : editing.email.trim();
    setNotice(null);
    void run(async () => {
      await api.updateUser(user.id, { name: editing.name, email });
      setEditing(null);
      setNotice(`${editing.name.trim()}: saved.`);
    });
  };
  const create = (e: FormEvent) => {
    e.preventDefault();
    if (refuse(emailProblem(form.email))) return;
    const email = form.email.trim() === '' ? null : form.email.trim();
    void run(async () => {
      await api.createUser({ ...form, email });
      setForm({ login: '', name: '', role: 'reviewer', password: '', email: '' });
    });
  };
  const leastLength = settings ? ` (at least ${settings.passwordMinLength} characters)` : '';

  return (
    <section className="panel" aria-labelledby="users-title" data-testid="users-settings">
      <h3 id="users-title">People</h3>
      {error && <ErrorBanner message={error} />}
      {notice && (
        <p className="save-message save-message--ok" role="status" data-testid="users-notice">
          {notice}
        </p>
      )}
      {settings && (
        <div className="review-form__row">
          <label className="field">
            <span className="field__label">Lock after inactivity (minutes)</span>
            <input
              name="lockAfterMinutes"
              type="number"
              min={1}
              max={1440}
              defaultValue={settings.lockAfterMinutes}
              onBlur={(e) => void run(() => api.saveSettings({ lockAfterMinutes: Number(e.target.value) }))}
            />
          </label>
          <label>
            <input type="checkbox" name="fourEyes" checked={settings.fourEyes} onChange={(e) => void run(() => api.saveSettings({ fourEyes: e.target.checked }))} /> A Critical
            report is released by someone other than who acknowledged it
          </label>
        </div>
      )}
      {settings && (
        <PasswordPolicyForm
          key={JSON.stringify(settings)}
          settings={settings}
          onSave={(change) => {
            if (refuse(policyProblem(change))) return;
            setNotice(null);
            void run(async () => {
              await api.saveSettings(change);
              setNotice('The password rules are saved: they count from the next password chosen or sign-in.');
            });
          }}
        />
      )}
      {users && (
        <table className="users-table" data-testid="users-table">
          <thead>
            <tr>
              <th>Name</th>
              <th>Login</th>
              <th>E-mail</th>
              <th>Role</th>
              <th>State</th>
              <th />
            </tr>
          </thead>
          <tbody>
            {users.flatMap((u) => [
              <tr key={u.id} data-login={u.login}>
                <td>{u.name}</td>
                <td>{u.login}</td>
                <td>{u.email ?? <span className="muted">none</span>}</td>
                <td>
                  <select aria-label={`Role of ${u.login}`} value={u.role} onChange={(e) => void run(() => api.updateUser(u.id, { role: e.target.value as UserRole }))}>
                    {USER_ROLES.map((r) => (
                      <option key={r} value={r}>
                        {ROLE_TEXT[r]}
                      </option>
                    ))}
                  </select>
                </td>
                <td>
                  {u.disabled ? 'disabled' : u.locked ? 'locked' : 'active'}
                  {u.passwordChangeDue && !u.disabled && <span className="muted small"> · must change the password</span>}
                </td>
                <td>
                  {u.locked && (
                    <button type="button" className="button button--small" onClick={() => void run(() => api.unlockUser(u.id))}>
                      Unlock<span className="visually-hidden"> {u.login}</span>
                    </button>
                  )}{' '}
                  <button type="button" className="button button--small" onClick={() => void run(() => api.updateUser(u.id, { disabled: !u.disabled }))}>
                    {u.disabled ? 'Enable' : 'Disable'}
                    <span className="visually-hidden"> {u.login}</span>
                  </button>{' '}
                  <button
                    type="button"
                    className="button button--small"
                    aria-expanded={editing?.id === u.id}
                    onClick={() => setEditing(editing?.id === u.id ? null : { id: u.id, name: u.name, email: u.email ?? '' })}
                  >
                    Edit<span className="visually-hidden"> {u.login}</span>
                  </button>{' '}
                  <button type="button" className="button button--small" aria-expanded={resetting?.id === u.id} onClick={() => setResetting(resetting?.id === u.id ? null : { id: u.id, password: '' })}>
                    Reset password<span className="visually-hidden"> of {u.login}</span>
                  </button>
                </td>
              </tr>,
              editing?.id === u.id && (
                <tr key={`${u.id}:edit`}>
                  <td colSpan={6}>
                    <form className="review-form__row" data-testid="edit-user-form" aria-label={`Change ${u.login}`} onSubmit={(e) => saveEdit(e, u)}>
                      <label className="field">
                        <span className="field__label">Printed name</span>
                        <input name="edit-name" value={editing.name} onChange={(e) => setEditing({ ...editing, name: e.target.value })} required autoFocus />
                      </label>
                      <label className="field">
                        <span className="field__label">E-mail (alarm e-mails; empty: none)</span>
                        <input name="edit-email" type="text" inputMode="email" autoComplete="off" value={editing.email} onChange={(e) => setEditing({ ...editing, email: e.target.value })} />
                      </label>
                      <button type="submit" className="button button--primary">
                        Save
                      </button>
                      <button type="button" className="button" onClick={() => setEditing(null)}>
                        Cancel
                      </button>
                    </form>
                  </td>
                </tr>
              ),
              resetting?.id === u.id && (
                <tr key={`${u.id}:reset`}>
                  <td colSpan={6}>
                    <form className="review-form__row" data-testid="reset-password-form" onSubmit={(e) => resetPassword(e, u)}>
                      <label className="field">
                        <span className="field__label">
                          A new password for {u.name}
                          {leastLength}
                        </span>
                        <input
                          name="new-password"
                          type="password"
                          autoComplete="new-password"
                          value={resetting.password}
                          onChange={(e) => setResetting({ id: u.id, password: e.target.value })}
                          required
                          autoFocus
                        />
                      </label>
                      <button type="submit" className="button button--primary">
                        Set password
                      </button>
                      <button type="button" className="button" onClick={() => setResetting(null)}>
                        Cancel
                      </button>
                    </form>
                  </td>
                </tr>
              ),
            ])}
          </tbody>
        </table>
      )}
      <form className="review-form" onSubmit={create} data-testid="create-user-form">
        <h4>Add a person</h4>
        <div className="review-form__row">
          <label className="field">
            <span className="field__label">Printed name</span>
            <input name="name" value={form.name} onChange={(e) => setForm({ ...form, name: e.target.value })} required />
          </label>
          <label className="field">
            <span className="field__label">Login</span>
            <input name="login" value={form.login} onChange={(e) => setForm({ ...form, login: e.target.value })} required />
          </label>
          <label className="field">
            <span className="field__label">Role</span>
            <select name="role" value={form.role} onChange={(e) => setForm({ ...form, role: e.target.value as UserRole })}>
              {USER_ROLES.map((r) => (
                <option key={r} value={r}>
                  {ROLE_TEXT[r]}
                </option>
              ))}
            </select>
          </label>
          <label className="field">
            <span className="field__label">E-mail (optional, for alarm e-mails)</span>
            <input name="email" type="text" inputMode="email" autoComplete="off" value={form.email} onChange={(e) => setForm({ ...form, email: e.target.value })} />
          </label>
          <label className="field">
            <span className="field__label">Password{leastLength}</span>
            <input name="password" type="password" autoComplete="new-password" value={form.password} onChange={(e) => setForm({ ...form, password: e.target.value })} required />
          </label>
        </div>
        <button type="submit" className="button button--primary">
          Add
        </button>
      </form>
    </section>
  );
}

const POLICY_LABELS: Record<PolicyNumber, string> = {
  passwordMinLength: 'Least length (characters)',
  passwordExpiryDays: 'A password lasts (days; 0: never expires)',
  passwordHistory: 'Earlier passwords that may not come back (0: no rule)',
};

/**
 * The company's password rules, saved together. The numbers are judged against the same ranges
 * as the service's before anything is sent (noValidate: the browser's own bubble names no range).
 */
function PasswordPolicyForm({ settings, onSave }: { settings: CompanySettingsAnswer; onSave(change: Partial<CompanySettingsAnswer>): void }) {
  const [numbers, setNumbers] = useState<Record<PolicyNumber, string>>(() => ({
    passwordMinLength: String(settings.passwordMinLength),
    passwordExpiryDays: String(settings.passwordExpiryDays),
    passwordHistory: String(settings.passwordHistory),
  }));
  const [changeAtFirstSignIn, setChangeAtFirstSignIn] = useState(settings.changeAtFirstSignIn);
  const [changeAfterReset, setChangeAfterReset] = useState(settings.changeAfterReset);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    // An empty field is no number: refused in words like one out of range.
    const number = (text: string) => (text.trim() === '' ? Number.NaN : Number(text));
    onSave({
      passwordMinLength: number(numbers.passwordMinLength),
      passwordExpiryDays: number(numbers.passwordExpiryDays),
      passwordHistory: number(numbers.passwordHistory),
      changeAtFirstSignIn,
      changeAfterReset,
    });
  };
  return (
    <form className="review-form" onSubmit={submit} noValidate data-testid="password-policy-form" aria-labelledby="password-policy-title">
      <h4 id="password-policy-title">Password rules</h4>
      <div className="review-form__row">
        {POLICY_NUMBER_NAMES.map((name) => {
          const { min, max } = policyRange(name);
          return (
            <label className="field" key={name}>
              <span className="field__label">{POLICY_LABELS[name]}</span>
              <input name={name} type="number" inputMode="numeric" min={min} max={max} step={1} value={numbers[name]} onChange={(e) => setNumbers({ ...numbers, [name]: e.target.value })} />
            </label>
          );
        })}
      </div>
      <div className="review-form__row">
        <label>
          <input type="checkbox" name="changeAtFirstSignIn" checked={changeAtFirstSignIn} onChange={(e) => setChangeAtFirstSignIn(e.target.checked)} /> A person whose password an
          administrator chose changes it at the first sign-in
        </label>
        <label>
          <input type="checkbox" name="changeAfterReset" checked={changeAfterReset} onChange={(e) => setChangeAfterReset(e.target.checked)} /> After an administrator resets a
          password, its person changes it at the next sign-in
        </label>
      </div>
      <button type="submit" className="button button--primary">
        Save password rules
      </button>
    </form>
  );
}
