/** Which columns the table shows, remembered for the signed-in key. Reference and Alert always stay. */
import { COLUMN_IDS, COLUMN_INFO, DEFAULT_COLUMNS, PINNED_COLUMNS } from '../lib/columns';
import type { ColumnId } from '../lib/columns';
import { stores, useUi } from '../state/stores';
import { Popover } from './Popover';

export function ColumnChooser() {
  const columns = useUi((s) => s.columns);
  const toggle = (id: ColumnId, on: boolean) => stores.ui.getState().setColumns(on ? [...columns, id] : columns.filter((c) => c !== id));
  return (
    <Popover label="Columns ▾" title="Choose columns" testId="columns-button" className="popover--columns">
      <fieldset className="checkboxes column-chooser" data-testid="column-chooser">
        <legend className="field__label">Columns shown</legend>
        {COLUMN_IDS.map((id) => {
          const pinned = PINNED_COLUMNS.includes(id);
          return (
            <label key={id} className="checkbox" title={pinned ? 'Always shown, pinned to the left' : undefined}>
              <input type="checkbox" name={id} checked={columns.includes(id)} disabled={pinned} onChange={(e) => toggle(id, e.target.checked)} />
              {COLUMN_INFO[id].title}
            </label>
          );
        })}
        <button type="button" className="button button--small" onClick={() => stores.ui.getState().setColumns(DEFAULT_COLUMNS)}>
          Default columns
        </button>
      </fieldset>
    </Popover>
  );
}
