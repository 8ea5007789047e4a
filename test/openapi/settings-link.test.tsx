/**
 * The settings screen's "For local tools" panel links the API reference of the service it
 * talks to: the link, rendered from the screen itself with the service's own /local/info, leads
 * to the /docs page that service serves, and opens outside the app's window.
 */
import { renderToStaticMarkup } from 'react-dom/server';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { SettingsScreen } from '../../renderer/components/SettingsScreen';
import { stores } from '../../renderer/state/stores';
import { api, startTestService, type TestService } from '../support/service-fixture';

let svc: TestService;

beforeAll(async () => {
  svc = await startTestService([]);
});
afterAll(() => svc?.stop());

test('the settings screen links the /docs reference of the service it talks to', async () => {
  const session = await api(svc, '/local/session');
  const info = await api(svc, '/local/info');
  expect(info.status).toBe(200);
  stores.connection.setState({ phase: 'ready', baseUrl: svc.url, session: session.body, reachable: true });
  stores.keys.setState({ info: info.body, infoError: null, unreachable: false });
  // Rendering on the server, zustand reads a store's initial state: here, the state just set.
  for (const store of [stores.connection, stores.keys] as { getState(): unknown; getInitialState(): unknown }[]) {
    store.getInitialState = store.getState;
  }

  const html = renderToStaticMarkup(<SettingsScreen />);
  const link = /<a [^>]*data-testid="api-reference-link"[^>]*>/.exec(html)?.[0];
  expect(link, 'the link is on the screen').toBeDefined();
  const href = /href="([^"]+)"/.exec(link!)![1];
  expect(href).toBe(`${svc.url}/docs`);
  // target=_blank: the desktop app's window-open handler gives the link to the browser.
  expect(link).toContain('target="_blank"');

  const page = await fetch(href);
  expect(page.status).toBe(200);
  expect(await page.text()).toContain('<title>LabelDesk API reference</title>');
});
