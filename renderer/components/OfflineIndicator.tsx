/**
 * The one place that says the service is unreachable. While it is, the service is asked every
 * few seconds whether it is back (the list then reloads by itself); while it answers, a slow
 * heartbeat notices a service that stopped while nobody clicked anything.
 */
import { useEffect } from 'react';
import { useConnection } from '../state/stores';

const HEARTBEAT_MS = 10_000;
const RETRY_MS = 2_000;

export function OfflineIndicator() {
  const client = useConnection((s) => s.client);
  const reachable = useConnection((s) => s.reachable);
  useEffect(() => {
    if (!client) return;
    const timer = setInterval(() => void client.info().catch(() => undefined), reachable ? HEARTBEAT_MS : RETRY_MS);
    return () => clearInterval(timer);
  }, [client, reachable]);
  if (reachable) return null;
  return (
    <span className="offline" role="status" data-testid="offline-indicator" title="The LabelDesk service does not answer. LabelDesk keeps trying and reloads the list when it is back.">
      <span className="offline__dot" aria-hidden="true" />
      Offline: service unreachable
    </span>
  );
}
