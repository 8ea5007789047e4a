/**
 * The people of the company, for an administrator: who may sign in and with which role; create,
 * change a role, disable or enable, unlock after failed sign-ins, set a new password; and the
 * company's lock after inactivity and four-eyes release.
 */
import { useCallback, useEffect, useState } from 'react';
import type { FormEvent } from 'react';
import { userRoleSchema, type UserRoleName as UserRole } from '../../schema/people';
import { peopleClient, type CompanySettingsAnswer, type UserInfoAnswer } from '../api/people-client';
import { plainProblem } from '../lib/problem-text';
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
  const [form, setForm] = useState({ login: '', name: '', role: 'reviewer' as UserRole, password: '' });
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
  const resetPassword = (e: FormEvent, user: UserInfoAnswer) => {
    e.preventDefault();
    if (!resetting) return;
    const { password } = resetting;
    setNotice(null);
    void run(async () => {
      await api.resetPassword(user.id, password);
      setResetting(null);
      setNotice(`${user.name} signs in with the new password from now on.`);
    });
  };
  const create = (e: FormEvent) => {
    e.preventDefault();
    void run(async () => {
      await api.createUser(form);
      setForm({ login: '', name: '', role: 'reviewer', password: '' });
    });
  };

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
      {users && (
        <table className="users-table" data-testid="users-table">
          <thead>
            <tr>
              <th>Name</th>
              <th>Login</th>
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
                <td>
                  <select aria-label={`Role of ${u.login}`} value={u.role} onChange={(e) => void run(() => api.updateUser(u.id, { role: e.target.value as UserRole }))}>
                    {USER_ROLES.map((r) => (
                      <option key={r} value={r}>
                        {ROLE_TEXT[r]}
                      </option>
                    ))}
                  </select>
                </td>
                <td>{u.disabled ? 'disabled' : u.locked ? 'locked' : 'active'}</td>
                <td>
                  {u.locked && (
                    <button type="button" className="button button--small" onClick={() => void run(() => api.unlockUser(u.id))}>
                      Unlock
                    </button>
                  )}{' '}
                  <button type="button" className="button button--small" onClick={() => void run(() => api.updateUser(u.id, { disabled: !u.disabled }))}>
                    {u.disabled ? 'Enable' : 'Disable'}
                  </button>{' '}
                  <button type="button" className="button button--small" onClick={() => setResetting(resetting?.id === u.id ? null : { id: u.id, password: '' })}>
                    Reset password
                  </button>
                </td>
              </tr>,
              resetting?.id === u.id && (
                <tr key={`${u.id}:reset`}>
                  <td colSpan={5}>
                    <form className="review-form__row" data-testid="reset-password-form" onSubmit={(e) => resetPassword(e, u)}>
                      <label className="field">
                        <span className="field__label">A new password for {u.name} (at least 10 characters)</span>
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
            <span className="field__label">Password (at least 10 characters)</span>
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
