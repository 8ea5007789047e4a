/**
 * Settings: which company this desk is signed in as (and switching to another key), where
 * local tools reach the service, the company's local API keys, its webhooks and what it groups
 * shipments by. A new key is
 * shown once: the service keeps only its hash.
 */
import { useEffect, useState } from 'react';
import type { FormEvent } from 'react';
import { PERMISSIONS } from '../../schema/report';
import type { Permission } from '../../schema/report';
import type { ApiKeyInfo } from '../api/client';
import { formatIsoTime, formatTime, type TimeZoneSetting } from '../lib/time-zone';
import { useTimeZone } from '../state/time-zone';
import { personText } from '../lib/history-text';
import { browserEnv } from '../state/connection';
import { stores, useConnection, useKeys } from '../state/stores';
import { BackupsSettings } from './BackupsSettings';
import { CheckboxGroup } from './CheckboxGroup';
import { ConfirmAction } from './ConfirmAction';
import { ErrorBanner } from './ErrorBanner';
import { ProblemMessage } from './SaveMessage';
import { CopyButton, ShownOnce } from './ShownOnce';
import { SmtpSettingsPanel } from './SmtpSettings';
import { AlarmsSettingsPanel } from './AlarmsSettings';
import { ShipmentGroupingSettings } from './ShipmentGroupingSettings';
import { SyncSettings } from './SyncSettings';
import { UsersSettings } from './UsersSettings';
import { WebhooksSettings } from './WebhooksSettings';

const PERMISSION_TEXT: Record<Permission, string> = {
  'labelReports:read': 'Read reports',
  'labelReports:update': 'Change reports (flag, archive, status, limits…)',
  'labelReports:create': 'Take in labels (activate, record taps)',
  'webhooks:manage': 'Manage webhooks',
  'apiKeys:manage': 'Manage API keys',
  'sync:manage': 'Manage sync with a remote (settings, conflicts, refused edits)',
};

function when(value: string | number, zone: TimeZoneSetting): string {
  return typeof value === 'number' ? formatTime(value, zone) : formatIsoTime(value, zone);
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
      {session.person ? (
        // A person acts: who signs is what matters, not where the window's key came from.
        <p data-testid="session-company">
          <span data-testid="session-person">
            <strong>{personText(session.person)}</strong>, {session.person.role}
          </span>{' '}
          of <strong>{session.companyName}</strong> ({session.companyId}) — service at <code>{baseUrl}</code>
        </p>
      ) : (
        <p data-testid="session-company">
          <strong>{session.companyName}</strong> ({session.companyId}) — key from {from}, service at <code>{baseUrl}</code>
        </p>
      )}
      <p className="muted small" data-testid="session-may">
        {/* A person's permissions are their role's, whatever key the window came with. */}
        {session.person ? 'Your role may' : 'This key may'}: {session.permissions.map((p) => PERMISSION_TEXT[p].replace(/ \(.*\)$/, '')).join(' · ') || 'nothing'}
      </p>
      <button type="button" className="button" onClick={() => stores.connection.getState().useAnotherKey(browserEnv())}>
        Use another key
      </button>
    </section>
  );
}

function ServiceInfoPanel() {
  const unreachable = useKeys((s) => s.unreachable) || !useConnection((s) => s.reachable);
  const info = useKeys((s) => s.info);
  const infoError = useKeys((s) => s.infoError);
  const base = info?.baseUrl.replace(/\/+$/, '') ?? '';
  const curl = info ? `curl -H "x-api-key: $LABELDESK_KEY" "${base}/v2/labelReports?pageSize=10&output=minimal"` : '';
  return (
    <section className="panel" aria-labelledby="info-title">
      <h3 id="info-title">For local tools</h3>
      {unreachable && !info && <p className="muted">Shown when the service answers again.</p>}
      {infoError && !unreachable && <ErrorBanner message={infoError} />}
      {!info && !infoError && !unreachable && <p className="muted">Loading…</p>}
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
          <p>
            {/* A new window: the desktop app hands it to the browser, as its own window would put the UI's policy on the page, under which the reference cannot render. */}
            Every endpoint is described in the{' '}
            <a href={`${base}/docs`} target="_blank" rel="noreferrer" data-testid="api-reference-link">
              API reference
            </a>{' '}
            (OpenAPI document: <code>{base}/openapi.json</code>, no key needed).
          </p>
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

/** Said on the Connect screen after someone revokes the key they are signed in with. */
const REVOKED_OWN_KEY = 'You revoked the key this window was signed in with, so it is signed out. Sign in with another key to go on.';

function KeyRow({ k, isThisKey }: { k: ApiKeyInfo; isThisKey: boolean }) {
  const zone = useTimeZone();
  const revoking = useKeys((s) => s.revoking === k.id);
  const name = k.name ?? 'unnamed';
  const revoke = async () => {
    const revoked = await stores.keys.getState().revoke(k.id, { signsOut: isThisKey });
    if (revoked && isThisKey) stores.connection.getState().signOut(REVOKED_OWN_KEY);
  };
  return (
    <tr data-testid={`key-${k.id}`} className={`${k.revoked !== null ? 'is-revoked' : ''}${isThisKey ? ' is-this-key' : ''}`}>
      <td>
        {k.name || <span className="muted">unnamed</span>}
        {isThisKey && (
          <span className="this-key" data-testid="this-key">
            this key
          </span>
        )}
      </td>
      <td>{k.permissions.map((p) => PERMISSION_TEXT[p].replace(/ \(.*\)$/, '')).join(', ')}</td>
      <td>{when(k.created, zone)}</td>
      <td>{k.revoked !== null ? `Revoked ${when(k.revoked, zone)}` : 'Active'}</td>
      <td className="actions">
        {k.revoked === null && (
          <ConfirmAction
            label="Revoke…"
            question={
              isThisKey ? (
                <span className="confirm__warning" data-testid="revoke-own-key-warning">
                  <strong>This is the key this window is signed in with.</strong> Revoking “{name}” signs you out here at once, and tools using it stop
                  working.
                </span>
              ) : (
                `Revoke “${name}”? Tools using it stop working.`
              )
            }
            confirmLabel={isThisKey ? 'Yes, revoke and sign out' : 'Yes, revoke'}
            busy={revoking}
            onConfirm={revoke}
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
  const unreachable = useKeys((s) => s.unreachable) || !useConnection((s) => s.reachable);
  const thisKey = useConnection((s) => s.session?.keyId ?? null);
  return (
    <section className="panel" aria-labelledby="keys-title">
      <h3 id="keys-title">Tool keys (API keys)</h3>
      <p className="muted small">For local tools and scripts. A tool reads and edits; once the company has people, only people sign acknowledgements and decisions.</p>
      {!canManage ? (
        <p className="note note--locked">
          This key may not manage API keys. Sign in with the desktop app&apos;s own key, or with a key that may, to create or revoke keys.
        </p>
      ) : (
        <>
          {/* Unreachable is said once, by the header's indicator. */}
          {error && !unreachable && <ErrorBanner message={error} onDismiss={() => stores.keys.getState().dismissError()} />}
          {unreachable && !keys && <p className="muted">The keys are listed when the service answers again.</p>}
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
                  <KeyRow key={k.id} k={k} isThisKey={k.id === thisKey} />
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
  const reachable = useConnection((s) => s.reachable);
  // Loaded on opening, and again when the service is back after being unreachable.
  useEffect(() => {
    if (reachable) void stores.keys.getState().load(canManage);
  }, [canManage, reachable]);
  return (
    <div className="settings">
      <SessionPanel />
      <ServiceInfoPanel />
      <UsersSettings />
      <KeysPanel canManage={canManage} />
      <WebhooksSettings />
      <AlarmsSettingsPanel />
      <ShipmentGroupingSettings />
      <SmtpSettingsPanel />
      <SyncSettings />
      <BackupsSettings />
    </div>
  );
}
