/**
 * Settings › Shipments (docs/shipments.md#grouping-by-a-custom-field): what the company groups
 * its reports into shipments by, the label reference or one custom field. The field is typed or
 * picked from those in use, judged with the API's own schema before it is sent; saving makes
 * every shipment again, so the panel says so. Changing it needs apiKeys:manage, as the API does.
 */
import { useEffect, useState } from 'react';
import type { FormEvent } from 'react';
import { shipmentGroupingSchema } from '../../schema/shipment';
import { shipmentsClient } from '../api/shipments-client';
import { plainZodError } from '../lib/plain-words';
import { plainProblem } from '../lib/problem-text';
import { useConnection } from '../state/stores';
import { ProblemMessage, ReadOnlyReason } from './SaveMessage';

export function ShipmentGroupingSettings() {
  const client = useConnection((s) => s.client);
  const canManage = useConnection((s) => s.session?.permissions.includes('apiKeys:manage') ?? false);
  // While the service does not answer, the header says so once; this panel does not repeat it.
  const reachable = useConnection((s) => s.reachable);
  const [stored, setStored] = useState<string | null | undefined>(undefined);
  const [by, setBy] = useState<'reference' | 'field'>('reference');
  const [field, setField] = useState('');
  const [inUse, setInUse] = useState<string[]>([]);
  const [problem, setProblem] = useState<string | null>(null);
  const [saved, setSaved] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    if (!client) return;
    const controller = new AbortController();
    void shipmentsClient(client)
      .grouping()
      .then((g) => {
        setStored(g.field);
        setBy(g.field === null ? 'reference' : 'field');
        setField(g.field ?? '');
      })
      .catch((err) => setProblem(plainProblem(err)));
    void client
      .customFields(controller.signal)
      .then((fields) => setInUse(fields.map((f) => f.customFieldId)))
      .catch(() => setInUse([]));
    return () => controller.abort();
  }, [client]);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (!client) return;
    const body = shipmentGroupingSchema.safeParse({ field: by === 'reference' ? null : field.trim() });
    if (!body.success) return setProblem(plainZodError(body.error));
    setProblem(null);
    setSaved(null);
    setBusy(true);
    try {
      const now = await shipmentsClient(client).setGrouping(body.data);
      setStored(now.field);
      setSaved(now.field === null ? 'Shipments are grouped by label reference.' : `Shipments are grouped by the custom field ${now.field}.`);
    } catch (err) {
      setProblem(plainProblem(err));
    } finally {
      setBusy(false);
    }
  };

  if (stored === undefined && !problem) return null;
  return (
    <section className="panel" aria-labelledby="shipment-grouping-title" data-testid="shipment-grouping">
      <h3 id="shipment-grouping-title">Shipments</h3>
      <p className="muted small">
        A shipment is the reports sharing one value, case and spaces aside. A report without the value belongs to no shipment. Changing this makes every shipment again;
        facts and decisions stay with the shipment they were given to.
      </p>
      {!canManage && <ReadOnlyReason reason="changing how shipments are grouped needs the Manage API keys permission." />}
      <form onSubmit={(e) => void submit(e)} aria-label="Group shipments by">
        <fieldset disabled={!canManage || busy}>
          <legend>Group reports into shipments by</legend>
          <label className="choice">
            <input type="radio" name="shipment-grouping" value="reference" checked={by === 'reference'} onChange={() => setBy('reference')} /> Label reference
          </label>
          <label className="choice">
            <input type="radio" name="shipment-grouping" value="field" checked={by === 'field'} onChange={() => setBy('field')} /> A custom field
          </label>
          <label className="field">
            <span className="field__label">Custom field</span>
            <input name="shipment-grouping-field" list="shipment-grouping-fields" value={field} disabled={by !== 'field'} onChange={(e) => setField(e.target.value)} placeholder="e.g. shipment" />
            <datalist id="shipment-grouping-fields">
              {inUse.map((f) => (
                <option key={f} value={f} />
              ))}
            </datalist>
          </label>
          <button type="submit" className="button">
            Save
          </button>
        </fieldset>
      </form>
      <ProblemMessage problem={reachable ? problem : null} />
      {saved && (
        <p className="save-message save-message--ok" role="status" data-testid="shipment-grouping-saved">
          {saved}
        </p>
      )}
    </section>
  );
}
