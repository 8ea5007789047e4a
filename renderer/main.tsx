/**
 * Renderer entry. The key is taken out of the address bar first (connection resolution), then
 * the view in the query string is applied, then React renders. The print view of one report
 * (`?view=print&report=<id>`) is a page of its own: no list, no URL sync.
 */
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './App';
import { PrintView } from './components/PrintView';
import { decodeUrlState } from './lib/url-state';
import { createConnectionStore } from './state/connection';
import { browserEnv } from './state/connection';
import { stores } from './state/stores';
import { browserUrlEnv, startUrlSync } from './state/url-sync';
import './styles.css';

const initial = decodeUrlState(window.location.search);
// The print view connects on its own: the app's stores would also load the list and its filters.
const printConnection = initial.view === 'print' ? createConnectionStore() : null;
void (printConnection ?? stores.connection).getState().resolve(browserEnv());
if (!printConnection) startUrlSync(stores, browserUrlEnv());

const root = document.getElementById('root');
if (!root) throw new Error('index.html lacks the #root element');
createRoot(root).render(
  <StrictMode>
    {printConnection ? <PrintView reportId={initial.report} connection={printConnection} /> : <App />}
  </StrictMode>,
);
