/**
 * The shipment a report belongs to, named in the report panel's header and opened from it
 * (docs/shipments.md#in-the-app): staff release shipments, so a label is one step from the
 * others that travelled with it. Asked again when the report changes, as an edit of its
 * reference or of the field the company groups by moves it.
 */
import { useEffect, useState } from 'react';
import { shipmentsClient, type ShipmentSummary } from '../api/shipments-client';
import { stores, useConnection } from '../state/stores';

export function ShipmentLink({ reportId, version }: { reportId: string; version: string }) {
  const client = useConnection((s) => s.client);
  const [shipment, setShipment] = useState<ShipmentSummary | null | undefined>(undefined);
  useEffect(() => {
    if (!client) return;
    const abort = new AbortController();
    shipmentsClient(client)
      .ofReport(reportId, abort.signal)
      .then(setShipment, () => !abort.signal.aborted && setShipment(undefined));
    return () => abort.abort();
  }, [client, reportId, version]);
  if (shipment === undefined) return null;
  return (
    <p className="detail__shipment" data-testid="report-shipment">
      {shipment === null ? (
        <span className="muted">In no shipment</span>
      ) : (
        <>
          Shipment{' '}
          <button type="button" className="link-button" data-shipment-id={shipment.id} onClick={() => stores.ui.getState().openShipment(shipment.id)}>
            {shipment.reference}
          </button>{' '}
          · {shipment.labels} {shipment.labels === 1 ? 'label' : 'labels'}
        </>
      )}
    </p>
  );
}
