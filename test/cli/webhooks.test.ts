/**
 * `labeldesk webhooks create|list|delete`: the secret the real binary prints once is the one
 * deliveries are signed with; list never shows it; mistakes are told plainly (the runs after the
 * first through the command line's entry in this process).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openService } from '../../host/open-service';
import { COMPANIES } from '../support/service-fixture';
import { manager, openWebhookHarness } from '../support/webhook-fixture';
import { Receiver } from '../support/webhook-receiver';
import { runLabeldesk, runLabeldeskInProcess } from './run-labeldesk';

let dir: string;
let dbFile: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'labeldesk-webhooks-cli-'));
  dbFile = join(dir, 'hooks.db');
  const service = openService(dbFile);
  for (const company of COMPANIES) service.companies.upsert(company);
  service.close();
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const labeldesk = (...args: string[]) => runLabeldesk(dir, ['webhooks', ...args]);
const inProcess = (...args: string[]) => runLabeldeskInProcess(['webhooks', ...args]);

describe('labeldesk webhooks', () => {
  it('creates a webhook whose printed secret signs its deliveries, lists it without the secret, and deletes it', async () => {
    const receiver = await Receiver.start();
    try {
      const created = await labeldesk('create', '--db', dbFile, '--company', 'nordic', '--url', receiver.url(), '--events', 'labelReport.tapped', '--description', 'WMS');
      expect(created.code).toBe(0);
      expect(created.stdout).toMatch(/^created a webhook for Nordic Pharma Logistics \(nordic\)$/m);
      expect(created.stdout).toMatch(/^events:\s+labelReport\.tapped$/m);
      const id = /^id:\s+(\S+)$/m.exec(created.stdout)![1];
      const secret = /^secret:\s+(whsec_\S+)$/m.exec(created.stdout)![1];

      const listed = await inProcess('list', '--db', dbFile);
      expect(listed.code).toBe(0);
      const [header, row] = listed.stdout.trim().split('\n');
      expect(header.split(/\s{2,}/)).toEqual(['ID', 'COMPANY', 'URL', 'EVENTS', 'ENABLED', 'CREATED', 'DESCRIPTION']);
      expect(row.split(/\s{2,}/)).toEqual([id, 'nordic', receiver.url(), 'labelReport.tapped', 'yes', expect.stringMatching(/^\d{4}-/), 'WMS']);
      expect(listed.stdout).not.toContain('whsec_');
      expect((await inProcess('list', '--db', dbFile, '--company', 'acme')).stdout.trim()).toBe('no webhooks for acme');

      const harness = openWebhookHarness([], { file: dbFile });
      try {
        harness.deliver();
        harness.webhooks.test(manager('nordic'), id);
        const [request] = await receiver.waitFor(1);
        expect(new Webhook(secret).verify(request.body, request.headers as Record<string, string>)).toMatchObject({ type: 'webhook.test', data: { webhookId: id } });
      } finally {
        await harness.stop();
      }

      const deleted = await inProcess('delete', '--db', dbFile, id);
      expect(deleted).toMatchObject({ code: 0, stdout: `deleted the webhook ${id} of nordic (${receiver.url()})\n` });
      expect((await inProcess('list', '--db', dbFile)).stdout.trim()).toBe('no webhooks');
    } finally {
      await receiver.close();
    }
  });

  it('says what is wrong: a missing or bad option (2), an unknown company or webhook (1)', async () => {
    const noUrl = await inProcess('create', '--db', dbFile, '--company', 'acme');
    expect(noUrl.code).toBe(2);
    expect(noUrl.stderr).toMatch(/give --url URL/);
    const bad = await inProcess('create', '--db', dbFile, '--company', 'acme', '--url', 'ftp://x', '--events', 'labelReport.gone');
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/--url: must be an http or https URL; --events 'labelReport\.gone': /);
    const metadata = await inProcess('create', '--db', dbFile, '--company', 'acme', '--url', 'http://169.254.169.254/');
    expect(metadata).toMatchObject({ code: 1, stderr: expect.stringMatching(/link-local address; webhooks cannot be sent there/) });
    const nobody = await inProcess('create', '--db', dbFile, '--company', 'nobody', '--url', 'http://10.0.0.1/');
    expect(nobody).toMatchObject({ code: 1, stderr: expect.stringMatching(/unknown company 'nobody' \(companies: acme, /) });
    const unknown = await inProcess('delete', '--db', dbFile, 'nope');
    expect(unknown).toMatchObject({ code: 1, stderr: expect.stringMatching(/no webhook with id 'nope'/) });
    const help = await runLabeldesk(dir, ['help', 'webhooks']);
    expect(help.stdout).toMatch(/^usage: labeldesk webhooks create/);
  });
});
