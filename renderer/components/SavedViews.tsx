/**
 * Views beside the filters (docs/review-and-audit.md#my-queue-and-saved-views): my queue, what
 * awaits the person's role, and the views they saved by name, each a set of filters and a sort,
 * kept on this desk for this person. Inside the filter bar's form, so the naming field is no
 * form of its own: Enter there saves.
 */
import { useState } from 'react';
import { decodeUrlState, encodeUrlState } from '../lib/url-state';
import { defaultQuery } from '../lib/list-query';
import { queueOf } from '../lib/my-queue';
import { stores, useConnection, useUi } from '../state/stores';
import { Popover } from './Popover';

function ViewsPanel() {
  const views = useUi((s) => s.views);
  const role = useConnection((s) => s.session?.person?.role);
  const queue = queueOf(role);
  const [name, setName] = useState('');
  const save = () => {
    if (name.trim() === '') return;
    stores.ui.getState().saveView(name, encodeUrlState({ query: stores.list.getState().query, report: null, view: 'reports' }));
    setName('');
  };
  const show = (search: string) => stores.list.getState().setQuery(decodeUrlState(search).query);
  return (
    <div className="views-panel" data-testid="views-panel">
      {queue && (
        <button type="button" className="button" onClick={() => stores.list.getState().setQuery({ ...defaultQuery(), filters: { ...defaultQuery().filters, review: queue.review } })} data-testid="my-queue">
          {queue.title}
        </button>
      )}
      <h3 className="field__label">Saved views</h3>
      {views.length === 0 ? (
        <p className="muted small">None yet: set the filters and sort, then save them here by name.</p>
      ) : (
        <ul className="views-panel__list">
          {views.map((v) => (
            <li key={v.name}>
              <button type="button" className="button button--quiet" onClick={() => show(v.search)} data-testid="saved-view">
                {v.name}
              </button>
              <button type="button" className="button button--quiet" aria-label={`Delete the view ${v.name}`} onClick={() => stores.ui.getState().removeView(v.name)}>
                ×
              </button>
            </li>
          ))}
        </ul>
      )}
      <label className="field">
        <span className="field__label">Save the current filters and sort as</span>
        <input
          name="view-name"
          value={name}
          maxLength={60}
          onChange={(e) => setName(e.target.value)}
          onKeyDown={(e) => {
            if (e.key !== 'Enter') return;
            e.preventDefault();
            save();
          }}
        />
      </label>
      <button type="button" className="button button--small" disabled={name.trim() === ''} onClick={save}>
        Save view
      </button>
    </div>
  );
}

export function SavedViews() {
  return (
    <Popover label={<>Views ▾</>} title="My queue and saved views" testId="views-button" className="popover--views">
      <ViewsPanel />
    </Popover>
  );
}
