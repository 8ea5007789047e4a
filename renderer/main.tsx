/**
 * Renderer entry. The key is taken out of the address bar first (connection resolution), then
 * the view in the query string is applied, then React renders.
 */
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './App';
import { browserEnv } from './state/connection';
import { stores } from './state/stores';
import { browserUrlEnv, startUrlSync } from './state/url-sync';
import './styles.css';

void stores.connection.getState().resolve(browserEnv());
startUrlSync(stores, browserUrlEnv());

const root = document.getElementById('root');
if (!root) throw new Error('index.html lacks the #root element');
createRoot(root).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
