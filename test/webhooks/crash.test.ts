/**
 * The outbox survives a crash: `labeldesk serve` is killed (SIGKILL) after an activation has
 * committed and while its event is on its way but not yet delivered; started again on the same
 * file, it delivers the event, under the same webhook-id.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openService } from '../../host/open-service';
import { REPO } from '../cli/run-labeldesk';
import { COMPANIES, makeActivation } from '../support/service-fixture';
import { Receiver } from '../support/webhook-receiver';

let dir: string;
const children: ChildProcess[] = [];
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'labeldesk-webhook-crash-'));
});
afterAll(() => {
  for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  rmSync(dir, { recursive: true, force: true });
});

/** `labeldesk serve` on the file; resolves with its address and its exit. */
function serve(dbFile: string): Promise<{ child: ChildProcess; url: string; exited: Promise<NodeJS.Signals | number | null> }> {
  const child = spawn(process.execPath, [join(REPO, 'bin/labeldesk.js'), 'serve', '--db', dbFile, '--port', '0'], {
    cwd: dir,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  children.push(child);
  const exited = new Promise<NodeJS.Signals | number | null>((resolve) => child.on('exit', (code, signal) => resolve(signal ?? code)));
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (chunk) => {
      out += chunk;
      const url = /listening on (http:\/\/\S+)\n/.exec(out)?.[1];
      if (url) resolve({ child, url, exited });
    });
    void exited.then((end) => reject(new Error(`serve ended (${end}) before listening:\n${out}`)));
  });
}

describe('webhook delivery across a crash', () => {
  it('an event committed before a SIGKILL is delivered after the restart', async () => {
    const receiver = await Receiver.start((_request, index) => (index === 0 ? 'hang' : { status: 200 }));
    const dbFile = join(dir, 'crash.sqlite');
    const setup = openService(dbFile);
    for (const company of COMPANIES) setup.companies.upsert(company);
    const key = setup.apiKeys.create('acme', ['labelReports:create', 'webhooks:manage'], 'crash').key;
    const hook = setup.webhooks.create({ companyId: 'acme', permissions: new Set(['webhooks:manage']) }, {
      url: receiver.url(),
      events: ['labelReport.activated'],
    });
    setup.close();
    const post = (url: string, path: string, body: unknown) =>
      fetch(url + path, { method: 'POST', headers: { 'x-api-key': key, 'content-type': 'application/json' }, body: JSON.stringify(body) });

    try {
      const first = await serve(dbFile);
      const activated = await post(first.url, '/v2/labelReports', makeActivation('r-crash'));
      expect(activated.status).toBe(201);
      // On its way and unanswered: the kill lands between the commit and the delivery.
      const [unanswered] = await receiver.waitFor(1);
      first.child.kill('SIGKILL');
      expect(await first.exited).toBe('SIGKILL');

      const second = await serve(dbFile);
      const [, delivered] = await receiver.waitFor(2);
      expect(delivered.headers['webhook-id']).toBe(unanswered.headers['webhook-id']);
      expect(delivered.body).toBe(unanswered.body);
      const payload = new Webhook(hook.secret).verify(delivered.body, delivered.headers as Record<string, string>) as { type: string; data: { id: string } };
      expect(payload).toMatchObject({ type: 'labelReport.activated', data: { id: 'r-crash' } });

      second.child.kill('SIGTERM');
      expect(await second.exited).toBe(0);
      const after = openService(dbFile);
      const log = after.webhooks.deliveries({ companyId: 'acme', permissions: new Set(['webhooks:manage']) }, hook.id, { pageNumber: 1, pageSize: 10 });
      after.close();
      expect(log.data.map((d) => [d.attempt, d.status])).toEqual([[1, 'succeeded']]);
    } finally {
      await receiver.close();
    }
  });
});
