/**
 * A reviewer's desk in real Chromium against the real service: the decision form offers only
 * what the person's role may sign; and when the local service stops answering (its requests
 * held by the browser, never answered), the report panel and the header say so instead of
 * "Loading report…" and the last sync state, and come back by themselves. A signature and the
 * history beside it read on the same 24-hour clock. The page's clock is
 * moved past the read deadline rather than slept through.
 */
import type { Page, Route } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addPerson, openDesk, shot, signIn, waitGone, waitText, watchProblems, type Desk } from './browser';

const PASSWORD = 'correct horse battery';

let desk: Desk;
let page: Page;
const problems: string[] = [];

beforeAll(async () => {
  desk = await openDesk('review-desk');
  addPerson(desk.service.service, 'acme', { login: 'rita', name: 'Rita Vogel', role: 'reviewer', password: PASSWORD });
  const context = await desk.browser.newContext({ viewport: { width: 1280, height: 720 } });
  page = await context.newPage();
  // The held requests end as failed ones when the test lets them go.
  watchProblems(page, problems, /net::ERR_/);
  await page.clock.install();
  await page.goto(desk.appUrl(desk.target.report.id));
  await signIn(page, 'rita', PASSWORD);
  await page.getByTestId('report-detail').getByTestId('decision-form').waitFor();
});

afterAll(async () => {
  await desk?.close();
});

describe('the reviewer’s desk', () => {
  it('offers a reviewer only the decisions a reviewer may sign', async () => {
    const form = page.getByTestId('decision-form');
    const offered = await form.locator('input[name=decision]').evaluateAll((inputs) => inputs.map((i) => (i as HTMLInputElement).value));
    expect(offered).toEqual(['rejected', 'onHold']);
    await waitText(form.getByTestId('decision-withheld'), 'A reviewer does not sign Released.');
    // What the service itself says the role may sign, which the form follows.
    const session = await page.evaluate(async (url) => {
      const token = sessionStorage.getItem('labeldesk.personSession');
      const res = await fetch(`${url}/local/session`, { headers: { 'x-api-key': token ?? '' } });
      return (await res.json()) as { mayDecide?: string[] };
    }, desk.service.url);
    expect(session.mayDecide).toEqual(['rejected', 'onHold']);
  });

  it('shows the signature and the history on one 24-hour clock, each zone named', async () => {
    const detail = page.getByTestId('report-detail');
    await detail.getByTestId('acknowledge-form').locator('button[type=submit]').click();
    const dialog = page.getByTestId('signature-dialog');
    await dialog.locator('input[name=signature-password]').fill(PASSWORD);
    await dialog.locator('button[type=submit]').click();
    await waitGone(dialog);
    const signature = detail.getByTestId('signature').first();
    await waitText(signature, 'Rita Vogel');
    const zone = await page.evaluate(() => Intl.DateTimeFormat().resolvedOptions().timeZone);
    await waitText(signature, `(${zone})`);
    await waitText(detail.locator('.history-list'), 'Rita Vogel');
    const texts = [await signature.textContent(), await detail.locator('.history-list').textContent(), await detail.getByTestId('facts').textContent().catch(() => '')];
    const clock = /\b([01]\d|2[0-3]):[0-5]\d\b/;
    for (const text of texts) expect(text ?? '').not.toMatch(/\d\s?(AM|PM)\b/);
    expect(texts[0]).toMatch(clock);
    expect(texts[1]).toMatch(clock);
    await waitText(detail, 'Newest first; times in');
    await shot(page, 'review-desk-signature');
  });

  it('says the local service does not answer, in the report panel and the header, and comes back', async () => {
    const held: Route[] = [];
    let hanging = true;
    await page.route(
      (url) => url.origin === new URL(desk.service.url).origin && /^\/(v2|local)\//.test(url.pathname),
      (route) => (hanging ? held.push(route) : route.continue()),
    );
    try {
      // Another report, asked for while the service says nothing (at 1280 px the panel covers the list).
      await page.getByTestId('report-detail').getByRole('button', { name: 'Close ✕' }).click();
      const other = page.locator(`.rows .row[data-report-id]:not([data-report-id="${desk.target.report.id}"])`).first();
      await other.click();
      await waitText(page.getByTestId('report-detail'), 'Loading report…');
      await expect.poll(() => held.length).toBeGreaterThan(0);
      await page.clock.fastForward('00:31');
      const banner = page.getByTestId('report-detail').locator('.banner--error');
      await waitText(banner, 'does not answer');
      await page.getByTestId('offline-indicator').waitFor();
      expect(await page.getByTestId('sync-indicator').count()).toBe(0);
      expect(await page.getByTestId('report-detail').getByText('Loading report…').count()).toBe(0);
      await shot(page, 'review-desk-silent-service');

      // It answers again: the heartbeat notices, the header clears, the report is read by itself.
      hanging = false;
      for (const route of held.splice(0)) await route.abort().catch(() => undefined);
      await page.clock.fastForward('00:03');
      await waitGone(page.getByTestId('offline-indicator'));
      await page.getByTestId('report-detail').locator('h2').waitFor();
      await waitGone(banner);
      await page.getByTestId('sync-indicator').waitFor();
    } finally {
      await page.unrouteAll({ behavior: 'ignoreErrors' });
    }
    expect(problems).toEqual([]);
  });
});
