/**
 * Settings › Webhooks: where LabelDesk posts label events so that a warehouse system or a local
 * tool learns of them at once. Every action on an endpoint answers in that endpoint's entry; a
 * key that may not manage webhooks is told so and offered nothing.
 */
import { useEffect, useRef, useState } from 'react';
import type { FormEvent } from 'react';
import { DEFAULT_EVENT_TYPES, REPORT_EVENT_TYPES, createWebhookBodySchema } from '../../schema/webhooks';
import type { ReportEventType, Webhook } from '../../schema/webhooks';
import { formatIsoTime } from '../lib/time-zone';
import { useTimeZone } from '../state/time-zone';
import { EVENT_TEXT } from '../lib/webhook-text';
import type { EndpointFields } from '../state/webhooks';
import { stores, useConnection, useWebhooks } from '../state/stores';
import { CheckboxGroup } from './CheckboxGroup';
import { ConfirmAction } from './ConfirmAction';
import { DeliveryLog } from './DeliveryLog';
import { ErrorBanner } from './ErrorBanner';
import { ProblemMessage } from './SaveMessage';
import { ShownOnce } from './ShownOnce';

const actions = () => stores.webhooks.getState();

/** The form's own check, in the words of the form's labels; the client checks again before sending. */
function problemOf(fields: EndpointFields): string | null {
  const result = createWebhookBodySchema.safeParse(fields);
  if (result.success) return null;
  const field = result.error.issues[0]?.path[0];
  if (field === 'url') return 'Enter the full address the receiver listens on, starting with http:// or https:// (for example http://192.168.1.20:8080/labels).';
  if (field === 'events') return 'Tick at least one event.';
  return 'Keep the description under 500 characters.';
}

function EndpointForm({
  initial,
  idPrefix,
  submitLabel,
  busyLabel,
  busy,
  serverProblem,
  onSubmit,
  onCancel,
}: {
  initial: EndpointFields;
  /** Keeps the ids of several open forms apart. */
  idPrefix: string;
  submitLabel: string;
  busyLabel: string;
  busy: boolean;
  /** The service's refusal of the last submit, shown where the form's own problems are. */
  serverProblem: string | null;
  onSubmit(fields: EndpointFields): Promise<boolean>;
  onCancel(): void;
}) {
  const [url, setUrl] = useState(initial.url);
  const [description, setDescription] = useState(initial.description);
  const [events, setEvents] = useState<Set<ReportEventType>>(new Set(initial.events));
  const [problem, setProblem] = useState<string | null>(null);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const fields = { url: url.trim(), description: description.trim(), events: REPORT_EVENT_TYPES.filter((t) => events.has(t)) };
    const found = problemOf(fields);
    setProblem(found);
    if (found === null) await onSubmit(fields);
  };

  return (
    <form className="webhook-form" onSubmit={submit} data-testid={`${idPrefix}-form`} noValidate>
      <label className="field field--grow">
        <span className="field__label">Address (URL)</span>
        <input
          name="url"
          type="url"
          value={url}
          onChange={(e) => setUrl(e.target.value)}
          placeholder="https://erp.example.local/labeldesk"
          maxLength={2000}
          autoFocus
          spellCheck={false}
        />
      </label>
      <label className="field field--grow">
        <span className="field__label">Description</span>
        <input name="description" value={description} onChange={(e) => setDescription(e.target.value)} placeholder="e.g. Warehouse system, dock 3" maxLength={500} />
      </label>
      <CheckboxGroup legend="Send these events" options={REPORT_EVENT_TYPES} labels={EVENT_TEXT} checked={events} onChange={setEvents} />
      <div className="webhook-form__buttons">
        <button type="submit" className="button button--primary" disabled={busy}>
          {busy ? busyLabel : submitLabel}
        </button>
        <button type="button" className="button" onClick={onCancel}>
          Cancel
        </button>
      </div>
      <ProblemMessage problem={problem ?? serverProblem} />
    </form>
  );
}

function StateBadge({ webhook }: { webhook: Webhook }) {
  return (
    <span className={`webhook-state webhook-state--${webhook.enabled ? 'on' : 'off'}`} data-testid="webhook-state">
      {webhook.enabled ? 'Enabled' : 'Disabled'}
    </span>
  );
}

function EndpointOutcome({ webhookId }: { webhookId: string }) {
  const outcome = useWebhooks((s) => (s.outcome?.webhookId === webhookId ? s.outcome : null));
  if (!outcome) return null;
  return (
    <p className={`save-message save-message--${outcome.ok ? 'ok' : 'error'}`} role={outcome.ok ? 'status' : 'alert'} data-testid="webhook-outcome">
      {outcome.message}
    </p>
  );
}

function Endpoint({ webhook }: { webhook: Webhook }) {
  const zone = useTimeZone();
  const busy = useWebhooks((s) => (s.busy?.webhookId === webhook.id ? s.busy.action : null));
  const rotated = useWebhooks((s) => (s.rotated?.webhookId === webhook.id ? s.rotated.secret : null));
  const logOpen = useWebhooks((s) => s.log?.webhookId === webhook.id);
  const [editing, setEditing] = useState(false);
  const entry = useRef<HTMLLIElement>(null);
  const editButton = useRef<HTMLButtonElement>(null);
  const titleId = `webhook-${webhook.id}-title`;

  const stopEditing = () => {
    setEditing(false);
    // The form goes away with the focus in it: give the focus back to where editing began.
    queueMicrotask(() => editButton.current?.focus());
  };

  return (
    <li className="webhook" aria-labelledby={titleId} data-testid={`webhook-${webhook.id}`} ref={entry} tabIndex={-1}>
      <div className="webhook__head">
        <h4 id={titleId} className="webhook__url">
          <code>{webhook.url}</code>
        </h4>
        <StateBadge webhook={webhook} />
      </div>
      {!webhook.enabled && webhook.disabledReason && (
        <p className="note note--warn" data-testid="webhook-disabled-reason">
          LabelDesk stopped sending here: {webhook.disabledReason}. Check the receiver, then enable the endpoint again.
        </p>
      )}
      {editing ? (
        <EndpointForm
          initial={{ url: webhook.url, description: webhook.description, events: webhook.events }}
          idPrefix={`edit-${webhook.id}`}
          submitLabel="Save changes"
          busyLabel="Saving…"
          busy={busy === 'save'}
          serverProblem={null}
          onSubmit={async (fields) => {
            const saved = await actions().update(webhook.id, fields);
            if (saved) stopEditing();
            return saved;
          }}
          onCancel={stopEditing}
        />
      ) : (
        <dl className="facts webhook__facts">
          <dt>Description</dt>
          <dd>{webhook.description || <span className="muted">none</span>}</dd>
          <dt>Events</dt>
          <dd>
            <ul className="webhook__events">
              {webhook.events.map((type) => (
                <li key={type}>
                  {EVENT_TEXT[type]} <code className="muted small">{type}</code>
                </li>
              ))}
            </ul>
          </dd>
          <dt>Added</dt>
          <dd>{formatIsoTime(webhook.created, zone)}</dd>
        </dl>
      )}
      <div className="webhook__actions" role="group" aria-label={`Actions for ${webhook.url}`}>
        {!editing && (
          <button
            type="button"
            className="button button--small"
            ref={editButton}
            onClick={() => {
              actions().clearOutcome();
              setEditing(true);
            }}
          >
            Edit
          </button>
        )}
        {webhook.enabled && (
          <button type="button" className="button button--small" disabled={busy !== null} onClick={() => void actions().sendTest(webhook.id)}>
            {busy === 'test' ? 'Sending…' : 'Send test event'}
          </button>
        )}
        <button type="button" className="button button--small" disabled={busy !== null} onClick={() => void actions().setEnabled(webhook.id, !webhook.enabled)}>
          {webhook.enabled ? (busy === 'disable' ? 'Disabling…' : 'Disable') : busy === 'enable' ? 'Enabling…' : 'Enable'}
        </button>
        <button
          type="button"
          className="button button--small"
          aria-expanded={logOpen}
          onClick={() => (logOpen ? actions().closeLog() : void actions().openLog(webhook.id))}
        >
          {logOpen ? 'Hide deliveries' : 'Show deliveries'}
        </button>
        <ConfirmAction
          label="Rotate secret…"
          question="Make a new secret? The old secret keeps working for 24 hours beside the new one: give the receiver the new secret within that time."
          confirmLabel="Yes, make a new secret"
          busy={busy === 'rotate'}
          onConfirm={() => actions().rotateSecret(webhook.id)}
        />
        <ConfirmAction
          label="Delete…"
          question={`Delete this endpoint? Nothing more is sent to ${webhook.url}, and its deliveries log goes with it.`}
          confirmLabel="Yes, delete"
          busy={busy === 'delete'}
          onConfirm={() => actions().remove(webhook.id)}
        />
      </div>
      <EndpointOutcome webhookId={webhook.id} />
      {rotated && (
        <ShownOnce
          testId="new-webhook-secret"
          value={rotated}
          valueLabel={`New signing secret for ${webhook.url}`}
          onDismiss={() => {
            actions().dismissRotated();
            entry.current?.focus();
          }}
        >
          <strong>New signing secret made.</strong> The old one keeps working for 24 hours.
        </ShownOnce>
      )}
      {logOpen && <DeliveryLog webhook={webhook} />}
    </li>
  );
}

function Notice() {
  const notice = useWebhooks((s) => s.notice);
  const box = useRef<HTMLParagraphElement>(null);
  // The entry that had the focus is gone: the sentence saying so takes it.
  useEffect(() => box.current?.focus(), [notice]);
  if (!notice) return null;
  return (
    <p className="save-message save-message--ok" role="status" ref={box} tabIndex={-1} data-testid="webhooks-notice">
      {notice}
    </p>
  );
}

function ManageWebhooks() {
  const webhooks = useWebhooks((s) => s.webhooks);
  const loading = useWebhooks((s) => s.loading);
  const error = useWebhooks((s) => s.error);
  const created = useWebhooks((s) => s.created);
  const creating = useWebhooks((s) => s.creating);
  const createError = useWebhooks((s) => s.createError);
  const [adding, setAdding] = useState(false);
  const addButton = useRef<HTMLButtonElement>(null);

  const stopAdding = () => {
    setAdding(false);
    queueMicrotask(() => addButton.current?.focus());
  };

  return (
    <>
      {error && <ErrorBanner message={error} onRetry={() => void actions().load(true)} onDismiss={() => actions().dismissError()} />}
      <button type="button" className="button" ref={addButton} aria-expanded={adding} disabled={adding} onClick={() => setAdding(true)}>
        Add endpoint…
      </button>
      {created && (
        <ShownOnce
          testId="new-webhook"
          value={created.secret}
          valueLabel={`Signing secret for ${created.url}`}
          onDismiss={() => {
            actions().dismissCreated();
            addButton.current?.focus();
          }}
        >
          <strong>Endpoint {created.url} added.</strong> The receiver needs this signing secret to check that messages come from LabelDesk.
        </ShownOnce>
      )}
      {adding && (
        <EndpointForm
          initial={{ url: '', description: '', events: [...DEFAULT_EVENT_TYPES] }}
          idPrefix="add-webhook"
          submitLabel="Add endpoint"
          busyLabel="Adding…"
          busy={creating}
          serverProblem={createError}
          onSubmit={async (fields) => {
            const made = await actions().create(fields);
            // The secret box takes the focus, so the form closes without giving it back.
            if (made) setAdding(false);
            return made;
          }}
          onCancel={stopAdding}
        />
      )}
      <Notice />
      {loading && !webhooks && <p className="muted">Loading webhooks…</p>}
      {webhooks && webhooks.length === 0 && <p className="muted">No endpoints yet.</p>}
      {webhooks && webhooks.length > 0 && (
        <ul className="webhooks" aria-label="Endpoints">
          {webhooks.map((w) => (
            <Endpoint key={w.id} webhook={w} />
          ))}
        </ul>
      )}
    </>
  );
}

export function WebhooksSettings() {
  const canManage = useConnection((s) => s.session?.permissions.includes('webhooks:manage') ?? false);
  useEffect(() => {
    void actions().load(canManage);
  }, [canManage]);
  return (
    <section className="panel" aria-labelledby="webhooks-title" data-testid="webhooks">
      <h3 id="webhooks-title">Webhooks</h3>
      <p className="muted">
        LabelDesk tells other systems at once when a label is activated or tapped, by sending a signed message to each endpoint registered here. A receiver that is down
        gets the message again later, for more than a day.
      </p>
      {canManage ? (
        <ManageWebhooks />
      ) : (
        <p className="note note--locked" data-testid="webhooks-locked">
          This key cannot manage webhooks, so none are shown here. Use the desktop app’s own key, or ask for a key that is allowed to manage webhooks.
        </p>
      )}
    </section>
  );
}
