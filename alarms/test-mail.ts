/** A test mail through the relay as set, so a person sees at once whether alarms would reach anyone. */
import { randomUUID } from 'node:crypto';
import type { SmtpRecord } from '../db/alarm-store';
import type { SmtpTestResult } from '../schema/alarms';
import { escapeHtml } from './mail-text';
import { SmtpRelay, type RelayOptions } from './smtp-relay';

export async function sendTestMail(smtp: SmtpRecord | undefined, password: string | null, to: string, options: RelayOptions = {}): Promise<SmtpTestResult> {
  const relay = new SmtpRelay({ timeoutMs: 15_000, maxConnections: 1, ...options });
  const messageId = `test_${randomUUID()}@labeldesk.invalid`;
  const text = 'This is a test from LabelDesk: alarm e-mails sent through this relay reach this address.';
  try {
    const outcome = await relay.send(smtp, password, { messageId, to: [to], subject: 'LabelDesk test e-mail', text, html: `<p>${escapeHtml(text)}</p>` });
    return outcome.ok
      ? { ok: true, messageId: `<${messageId}>`, message: `the relay took the mail to ${to}: ${outcome.reply}` }
      : { ok: false, messageId: null, message: outcome.error };
  } finally {
    relay.close();
  }
}
