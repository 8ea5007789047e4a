/**
 * The company's own fields on a report (order numbers, carriers, pallet ids…): add, change or
 * clear one at a time. A value keeps its type: text, number, or a list.
 */
import { useState } from 'react';
import type { FormEvent } from 'react';
import { customFieldIdSchema } from '../../schema/report';
import type { CustomFieldValue, LabelReport } from '../../schema/report';
import { formatCustomValue } from '../lib/format';
import type { EditRights } from '../lib/permissions';
import { plainZodError } from '../lib/plain-words';
import { stores, useDetail } from '../state/stores';
import { CustomFieldFacts } from './FactsPanel';
import { ReadOnlyReason, SaveMessage } from './SaveMessage';

export type ValueKind = 'text' | 'number' | 'list';

export function kindOf(value: CustomFieldValue): ValueKind {
  return Array.isArray(value) ? 'list' : typeof value === 'number' ? 'number' : 'text';
}

/** Turns typed text into a value of the chosen kind, or a message saying why it cannot. */
export function parseCustomValue(text: string, kind: ValueKind): { value: CustomFieldValue } | { error: string } {
  if (kind === 'number') {
    const n = Number(text.trim().replace(',', '.'));
    if (text.trim() === '' || !Number.isFinite(n)) return { error: `"${text}" is not a number.` };
    return { value: n };
  }
  if (kind === 'list') {
    const items = text
      .split(',')
      .map((s) => s.trim())
      .filter((s) => s !== '');
    return { value: items };
  }
  return { value: text };
}

function save(customFieldId: string, value: CustomFieldValue | null) {
  return stores.detail.getState().save('customFields', { customFields: [{ customFieldId, value }] });
}

function FieldRow({ id, value, locked }: { id: string; value: CustomFieldValue; locked: boolean }) {
  const kind = kindOf(value);
  const [text, setText] = useState(formatCustomValue(value));
  const setProblem = (message: string | null) => stores.detail.getState().refuse('customFields', message);
  const saving = useDetail((s) => s.saving === 'customFields');
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const parsed = parseCustomValue(text, kind);
    if ('error' in parsed) return setProblem(parsed.error);
    setProblem(null);
    await save(id, parsed.value);
  };
  return (
    <li>
      <form className="cf-row" onSubmit={submit} data-testid={`cf-${id}`}>
        <span className="cf-row__id">
          <code>{id}</code> <span className="muted small">{kind}</span>
        </span>
        <input aria-label={`Value of ${id}`} value={text} disabled={locked} onChange={(e) => setText(e.target.value)} />
        {!locked && (
          <>
            <button type="submit" className="button button--small" disabled={saving || text === formatCustomValue(value)}>
              Save
            </button>
            <button type="button" className="button button--small button--quiet" disabled={saving} onClick={() => void save(id, null)}>
              Clear
            </button>
          </>
        )}
      </form>
    </li>
  );
}

export function CustomFieldsEditor({ report, rights, notice }: { report: LabelReport; rights: EditRights; notice: string | null }) {
  const fields = report.customFields ?? [];
  const locked = !rights.canEditBookkeeping;
  const saving = useDetail((s) => s.saving === 'customFields');
  const [newId, setNewId] = useState('');
  const [newValue, setNewValue] = useState('');
  const [newKind, setNewKind] = useState<ValueKind>('text');
  const setProblem = (message: string | null) => stores.detail.getState().refuse('customFields', message);

  const add = async (e: FormEvent) => {
    e.preventDefault();
    const id = customFieldIdSchema.safeParse(newId.trim());
    if (!id.success) return setProblem(plainZodError(id.error));
    const parsed = parseCustomValue(newValue, newKind);
    if ('error' in parsed) return setProblem(parsed.error);
    setProblem(null);
    if (await save(id.data, parsed.value)) {
      setNewId('');
      setNewValue('');
    }
  };

  return (
    <section className="panel" aria-labelledby="cf-title">
      <h3 id="cf-title">Custom fields</h3>
      {/* On paper the rows, being forms, are left out: the fields print as words instead, as the print view lists them. */}
      <div className="print-only">
        <CustomFieldFacts report={report} />
      </div>
      {fields.length === 0 ? (
        <p className="muted no-print">No custom fields on this report.</p>
      ) : (
        <ul className="cf-list no-print">
          {fields.map((f) => (
            <FieldRow key={`${f.customFieldId}:${JSON.stringify(f.value)}`} id={f.customFieldId} value={f.value} locked={locked} />
          ))}
        </ul>
      )}
      {locked ? (
        notice && <ReadOnlyReason reason={notice} />
      ) : (
        <form className="form-row" onSubmit={add} data-testid="cf-add">
          <label className="field">
            <span className="field__label">Field id</span>
            <input value={newId} onChange={(e) => setNewId(e.target.value)} placeholder="e.g. carrier" />
          </label>
          <label className="field">
            <span className="field__label">Kind</span>
            <select value={newKind} onChange={(e) => setNewKind(e.target.value as ValueKind)}>
              <option value="text">Text</option>
              <option value="number">Number</option>
              <option value="list">List (comma separated)</option>
            </select>
          </label>
          <label className="field field--grow">
            <span className="field__label">Value</span>
            <input value={newValue} onChange={(e) => setNewValue(e.target.value)} />
          </label>
          <button type="submit" className="button" disabled={saving || newId.trim() === ''}>
            Add field
          </button>
        </form>
      )}
      <SaveMessage section="customFields" />
    </section>
  );
}
