/**
 * Settings: which company this desk is signed in as (and switching to another key), where
 * local tools reach the service, the company's local API keys and its webhooks. A new key is
 * shown once: the service keeps only its hash.
 */
import { useEffect, useState } from 'react';
import type { FormEvent } from 'react';
import { PERMISSIONS } from '../../schema/report';
import type { Permission } from '../../schema/report';
import type { ApiKeyInfo } from '../api/client';
import { formatIso } from '../lib/format';
import { browserEnv } from '../state/connection';
import { stores, useConnection, useKeys } from '../state/stores';
import { CheckboxGroup } from './CheckboxGroup';
import { ConfirmAction } from './ConfirmAction';
import { ErrorBanner } from './ErrorBanner';
import { ProblemMessage } from './SaveMessage';
import { CopyButton, ShownOnce } from './ShownOnce';
import { WebhooksSettings } from './WebhooksSettings';

const PERMISSION_TEXT: Record<Permission, string> = {
  'labelReports:read': 'Read reports',
  'labelReports:update': 'Change reports (flag, archive, status, limits…)',
  'labelReports:create': 'Take in labels (activate, record taps)',
  'webhooks:manage': 'Manage webhooks',
  'apiKeys:manage': 'Manage API keys',
  'sync:manage': 'Manage sync with a remote (settings, conflicts, refused edits)',
};

function when(value: string | number): string {
  return typeof value === 'number' ? new Date(value * 1000).toLocaleString() : formatIso(value);
}

function SessionPanel() {
  const session = useConnection((s) => s.session);
  const baseUrl = useConnection((s) => s.baseUrl);
  const source = useConnection((s) => s.source);
  if (!session) return null;
  const from = { bridge: 'the desktop app', link: 'a link', storage: 'this window', entered: 'typed in' }[source ?? 'entered'];
  return (
    <section className="panel" aria-labelledby="session-title">
      <h3 id="session-title">Signed in</h3>
      <p data-testid="session-company">
        <strong>{session.companyName}</strong> ({session.companyId}) — key from {from}, service at <code>{baseUrl}</code>
      </p>
      <p className="muted small">Key permissions: {session.permissions.join(', ') || 'none'}</p>
      <button type="button" className="button" onClick={() => stores.connection.getState().useAnotherKey(browserEnv())}>
        Use another key
      </button>
    </section>
  );
}

function ServiceInfoPanel() {
  const info = useKeys((s) => s.info);
  const infoError = useKeys((s) => s.infoError);
  const curl = info
    ? `curl -H "x-api-key: $LABELDESK_KEY" "${info.baseUrl.replace(/\/+$/, '')}/v2/labelReports?pageSize=10&output=minimal"`
    : '';
  return (
    <section className="panel" aria-labelledby="info-title">
      <h3 id="info-title">For local tools</h3>
      {infoError && <ErrorBanner message={infoError} />}
      {!info && !infoError && <p className="muted">Loading…</p>}
      {info && (
        <>
          <dl className="facts">
            <dt>Base URL</dt>
            <dd>
              <code data-testid="info-base-url">{info.baseUrl}</code>
            </dd>
            <dt>Port</dt>
            <dd>
              <code data-testid="info-port">{info.port}</code>
            </dd>
            <dt>Version</dt>
            <dd>{info.version}</dd>
          </dl>
          <p>Scripts on this computer reach the service there with an API key (below). For example:</p>
          <pre className="code-block" data-testid="curl-example">{curl}</pre>
          <CopyButton text={curl} label="Copy command" />
        </>
      )}
    </section>
  );
}

function CreateKeyForm() {
  const creating = useKeys((s) => s.creating);
  const created = useKeys((s) => s.created);
  const [name, setName] = useState('');
  const [perms, setPerms] = useState<Set<Permission>>(new Set(['labelReports:read']));
  const [problem, setProblem] = useState<string | null>(null);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (!name.trim()) return setProblem('Give the key a name, so you know later where it is used.');
    if (perms.size === 0) return setProblem('Tick at least one permission.');
    setProblem(null);
    if (await stores.keys.getState().create(name, PERMISSIONS.filter((p) => perms.has(p)))) setName('');
  };

  if (created) {
    return (
      <ShownOnce testId="new-key" value={created.key} valueLabel="New API key" onDismiss={() => stores.keys.getState().dismissCreated()}>
        <strong>Key “{created.name ?? 'unnamed'}” created.</strong>
      </ShownOnce>
    );
  }

  return (
    <form className="form-row" onSubmit={submit} data-testid="create-key-form">
      <label className="field field--grow">
        <span className="field__label">Name</span>
        <input name="keyName" value={name} onChange={(e) => setName(e.target.value)} placeholder="e.g. ERP export script" maxLength={200} />
      </label>
      <CheckboxGroup legend="Permissions" options={PERMISSIONS} labels={PERMISSION_TEXT} checked={perms} onChange={setPerms} />
      <button type="submit" className="button button--primary" disabled={creating}>
        {creating ? 'Creating…' : 'Create key'}
      </button>
      <ProblemMessage problem={problem} />
    </form>
  );
}

function KeyRow({ k }: { k: ApiKeyInfo }) {
  const revoking = useKeys((s) => s.revoking === k.id);
  return (
    <tr data-testid={`key-${k.id}`} className={k.revoked !== null ? 'is-revoked' : ''}>
      <td>{k.name || <span className="muted">unnamed</span>}</td>
      <td>{k.permissions.join(', ')}</td>
      <td>{when(k.created)}</td>
      <td>{k.revoked !== null ? `Revoked ${when(k.revoked)}` : 'Active'}</td>
      <td className="actions">
        {k.revoked === null && (
          <ConfirmAction
            label="Revoke…"
            question={`Revoke “${k.name ?? 'unnamed'}”? Tools using it stop working.`}
            confirmLabel="Yes, revoke"
            busy={revoking}
            onConfirm={() => stores.keys.getState().revoke(k.id)}
          />
        )}
      </td>
    </tr>
  );
}

function KeysPanel({ canManage }: { canManage: boolean }) {
  const keys = useKeys((s) => s.keys);
  const error = useKeys((s) => s.error);
  const loading = useKeys((s) => s.loading);
  return (
    <section className="panel" aria-labelledby="keys-title">
      <h3 id="keys-title">Local API keys</h3>
      {!canManage ? (
        <p className="note note--locked">
          <strong>Read only: </strong>this key cannot manage API keys (it lacks the apiKeys:manage permission). Use the desktop session key or another key
          that has it.
        </p>
      ) : (
        <>
          {error && <ErrorBanner message={error} onDismiss={() => stores.keys.getState().dismissError()} />}
          <CreateKeyForm />
          {loading && !keys && <p className="muted">Loading keys…</p>}
          {keys && keys.length === 0 && <p className="muted">No keys yet.</p>}
          {keys && keys.length > 0 && (
            <table className="keys-table">
              <thead>
                <tr>
                  <th>Name</th>
                  <th>Permissions</th>
                  <th>Created</th>
                  <th>State</th>
                  <th>
                    <span className="visually-hidden">Actions</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {keys.map((k) => (
                  <KeyRow key={k.id} k={k} />
                ))}
              </tbody>
            </table>
          )}
        </>
      )}
    </section>
  );
}

export function SettingsScreen() {
  const canManage = useConnection((s) => s.session?.permissions.includes('apiKeys:manage') ?? false);
  useEffect(() => {
    void stores.keys.getState().load(canManage);
  }, [canManage]);
  return (
    <div className="settings">
      <SessionPanel />
      <ServiceInfoPanel />
      <KeysPanel canManage={canManage} />
      <WebhooksSettings />
    </div>
  );
}
