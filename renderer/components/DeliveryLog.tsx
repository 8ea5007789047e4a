/**
 * The deliveries log of one endpoint, newest first, a page at a time: every attempt made, and
 * each waiting message's next attempt. A message can be sent again from its newest entry.
 */
import type { Delivery, Webhook } from '../../schema/webhooks';
import { DELIVERY_STATUS_TEXT, deliveryErrorText, messageTypeText } from '../lib/webhook-text';
import { stores, useWebhooks } from '../state/stores';
import { ErrorBanner } from './ErrorBanner';
import { formatIsoTime } from '../lib/time-zone';
import { useTimeZone } from '../state/time-zone';

/**
 * Seconds matter here, as staff compare an attempt with the receiver's own log; the year does
 * not, as attempts are kept 30 days, and leaving it out keeps the table within 1280 pixels.
 */

function Response({ delivery }: { delivery: Delivery }) {
  if (delivery.responseStatus === null) return <span className="muted">{delivery.status === 'pending' ? '—' : 'no answer'}</span>;
  return (
    <>
      <strong>{delivery.responseStatus}</strong>
      {delivery.durationMs !== null && <span className="muted small"> in {delivery.durationMs} ms</span>}
    </>
  );
}

function Problem({ error }: { error: string | null }) {
  const problem = deliveryErrorText(error);
  if (!problem) return null;
  return (
    <span className="delivery-log__problem">
      {problem.text}
      {problem.detail && <code className="delivery-log__detail">{problem.detail}</code>}
    </span>
  );
}

export function DeliveryLog({ webhook }: { webhook: Webhook }) {
  const zone = useTimeZone();
  const log = useWebhooks((s) => (s.log?.webhookId === webhook.id ? s.log : null));
  const pageSize = useWebhooks((s) => s.pageSize);
  const redelivering = useWebhooks((s) => s.busy?.webhookId === webhook.id && s.busy.action === 'redeliver');
  if (!log) return null;
  const show = (pageNumber: number) => void stores.webhooks.getState().openLog(webhook.id, pageNumber);
  const pages = Math.max(1, Math.ceil(log.totalDocuments / pageSize));
  const titleId = `deliveries-${webhook.id}-title`;
  // Sending again belongs to a message, not to each of its attempts: offered on its newest entry.
  const messages = new Set<string>();
  const newestEntries = new Set<string>();
  for (const d of log.deliveries ?? []) {
    if (messages.has(d.messageId)) continue;
    messages.add(d.messageId);
    newestEntries.add(d.id);
  }

  return (
    <section className="delivery-log" aria-labelledby={titleId} data-testid="delivery-log">
      <div className="delivery-log__bar">
        <h5 id={titleId}>Deliveries, newest first</h5>
        <span className="muted small" role="status">
          {log.following ? 'Waiting for the receiver’s answer…' : log.loading ? 'Reading the log…' : ''}
        </span>
        <button type="button" className="button button--small" onClick={() => show(log.pageNumber)}>
          Refresh
        </button>
      </div>
      {log.error && <ErrorBanner message={log.error} onRetry={() => show(log.pageNumber)} />}
      {log.deliveries && log.deliveries.length === 0 && (
        <p className="muted">Nothing sent yet.{webhook.enabled ? ' Send a test event to check that the receiver answers.' : ''}</p>
      )}
      {log.deliveries && log.deliveries.length > 0 && (
        <>
          <table className="keys-table delivery-log__table">
            <thead>
              <tr>
                <th scope="col">Time</th>
                <th scope="col">Message</th>
                <th scope="col">Status</th>
                <th scope="col">Response</th>
                <th scope="col">Next attempt</th>
                <th scope="col">
                  <span className="visually-hidden">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {log.deliveries.map((d) => (
                <tr key={d.id} data-testid="delivery" data-status={d.status}>
                  <td>{formatIsoTime(d.at, zone, true)}</td>
                  <td>
                    {messageTypeText(d.type)}
                    <span className="muted small">, attempt {d.attempt}</span>
                    <code className="delivery-log__id">{d.messageId}</code>
                  </td>
                  <td>
                    <span className={`delivery-status delivery-status--${d.status}`}>{DELIVERY_STATUS_TEXT[d.status]}</span>
                    <Problem error={d.error} />
                  </td>
                  <td data-testid="delivery-response" className="nowrap">
                    <Response delivery={d} />
                  </td>
                  <td className="nowrap">{d.nextAttemptAt ? formatIsoTime(d.nextAttemptAt, zone, true) : '—'}</td>
                  <td className="actions">
                    {webhook.enabled && newestEntries.has(d.id) && (
                      <button
                        type="button"
                        className="button button--small"
                        disabled={redelivering}
                        onClick={() => void stores.webhooks.getState().redeliver(webhook.id, d.messageId)}
                      >
                        Redeliver<span className="visually-hidden"> message {d.messageId}</span>
                      </button>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
          <nav className="pager" aria-label="Pages of the deliveries log">
            <button type="button" className="button button--small" disabled={log.pageNumber <= 1} onClick={() => show(log.pageNumber - 1)}>
              Newer
            </button>
            <span>
              Page {log.pageNumber} of {pages} ({log.totalDocuments} {log.totalDocuments === 1 ? 'entry' : 'entries'})
            </span>
            <button type="button" className="button button--small" disabled={log.pageNumber >= pages} onClick={() => show(log.pageNumber + 1)}>
              Older
            </button>
          </nav>
        </>
      )}
    </section>
  );
}
