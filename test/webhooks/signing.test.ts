/**
 * Signatures as the Standard Webhooks reference implementation makes and checks them, the
 * secret's form, and which secrets sign around a rotation.
 */
import { Webhook } from 'standardwebhooks';
import { describe, expect, it } from 'vitest';
import { newSecret } from '../../service/webhook-secrets';
import { sign, signatureHeader, signingSecrets } from '../../webhooks/signing';

describe('webhook signing', () => {
  it('makes secrets of 32 random bytes after whsec_', () => {
    const secret = newSecret();
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(Buffer.from(secret.slice('whsec_'.length), 'base64')).toHaveLength(32);
    expect(newSecret()).not.toBe(secret);
  });

  it('signs exactly as the reference implementation, over id, timestamp and the body as sent', () => {
    const secret = newSecret();
    const body = '{"type":"webhook.test","timestamp":"2026-11-20T10:00:00.000Z","data":{"webhookId":"w ü €"}}';
    const timestamp = Math.floor(Date.now() / 1000);
    const expected = new Webhook(secret).sign('msg_1', new Date(timestamp * 1000), body);
    expect(sign(secret, 'msg_1', timestamp, body)).toBe(expected);
    const headers = { 'webhook-id': 'msg_1', 'webhook-timestamp': String(timestamp), 'webhook-signature': signatureHeader([secret], 'msg_1', timestamp, body) };
    expect(new Webhook(secret).verify(body, headers)).toEqual(JSON.parse(body));
    expect(() => new Webhook(secret).verify(body.replace('ü', 'u'), headers)).toThrow(/No matching signature/);
    expect(() => new Webhook(newSecret()).verify(body, headers)).toThrow(/No matching signature/);
  });

  it('signs with the previous secret too until it expires', () => {
    const webhook = { secret: 'whsec_new', previousSecret: 'whsec_old', previousSecretExpires: '2026-11-21T10:00:00.000Z' };
    expect(signingSecrets(webhook, new Date('2026-11-21T09:59:59.999Z'))).toEqual(['whsec_new', 'whsec_old']);
    expect(signingSecrets(webhook, new Date('2026-11-21T10:00:00.000Z'))).toEqual(['whsec_new']);
    expect(signingSecrets({ secret: 'whsec_new', previousSecret: null, previousSecretExpires: null }, new Date(0))).toEqual(['whsec_new']);
    const [current, previous] = [newSecret(), newSecret()];
    const header = signatureHeader([current, previous], 'msg_2', 1_780_000_000, '{}');
    expect(header.split(' ')).toEqual([sign(current, 'msg_2', 1_780_000_000, '{}'), sign(previous, 'msg_2', 1_780_000_000, '{}')]);
  });
});
