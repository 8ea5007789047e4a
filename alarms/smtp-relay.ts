/**
 * The company's SMTP relay, through nodemailer: one pooled transport per set of settings,
 * replies read under a cap, and every failure named in words a person at the desk can act on
 * (the relay unreachable, the login refused, a recipient refused), with whether trying again
 * can help.
 */
import { readFileSync } from 'node:fs';
import { createTransport, type Transporter } from 'nodemailer';
import type SMTPPool from 'nodemailer/lib/smtp-pool';
import * as tls from 'node:tls';
import type { SmtpRecord } from '../db/alarm-store';
import { composeMime } from './mime';

/** The largest reply line read from the relay; a longer one ends the connection (nodemailer's EPROTOCOL). */
export const MAX_REPLY_BYTES = 64 * 1024;
/** What is kept of a reply or an error in the delivery log. */
export const MAX_LOGGED_CHARS = 1000;

export interface OutgoingMail {
  /** The Message-ID without angle brackets: the same at every attempt of one mail. */
  messageId: string;
  to: string[];
  subject: string;
  text: string;
  html: string;
}

export type SendOutcome =
  | { ok: true; reply: string; durationMs: number }
  | { ok: false; error: string; reply: string | null; durationMs: number; permanent: boolean };

/**
 * A PEM file of certificates the relay's TLS is checked against besides the system's: a relay
 * with a self-signed certificate, or one signed by the company's own CA, is trusted by naming
 * that certificate here. There is no switch that trusts any certificate: a relay's password and
 * the alarms' content would go to whoever answers.
 */
export const SMTP_CA_FILE_ENV = 'LABELDESK_SMTP_CA_FILE';

/** Node's codes of a certificate that does not check out (tls.TLSSocket's authorizationError). */
const CERTIFICATE_CODES = new Set([
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'UNABLE_TO_GET_ISSUER_CERT',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'CERT_HAS_EXPIRED',
  'CERT_NOT_YET_VALID',
  'CERT_UNTRUSTED',
  'CERT_REJECTED',
  'CERT_SIGNATURE_FAILURE',
  'ERR_TLS_CERT_ALTNAME_INVALID',
]);

export interface RelayOptions {
  /** Per step of the exchange (connecting, the greeting, each reply). */
  timeoutMs?: number;
  maxConnections?: number;
  /** Certificates the relay's TLS is checked against, beside the system's; else those of SMTP_CA_FILE_ENV. */
  ca?: string | Buffer;
}

/** The certificates SMTP_CA_FILE_ENV names, or why they cannot be read. */
export function trustFromEnvironment(env: NodeJS.ProcessEnv = process.env): { ca?: Buffer; error?: string } {
  const file = env[SMTP_CA_FILE_ENV];
  if (!file) return {};
  try {
    return { ca: readFileSync(file) };
  } catch (err) {
    return { error: `${SMTP_CA_FILE_ENV}: cannot read the certificates in ${file}: ${(err as Error).message}` };
  }
}

export class SmtpRelay {
  private transport: Transporter<SMTPPool.SentMessageInfo> | undefined;
  private key = '';
  private readonly ca: string | Buffer | undefined;
  private readonly trustError: string | undefined;

  constructor(private readonly options: RelayOptions = {}) {
    const trust = options.ca !== undefined ? { ca: options.ca } : trustFromEnvironment();
    this.ca = trust.ca;
    this.trustError = 'error' in trust ? trust.error : undefined;
  }

  /** Sends one mail with these settings; never throws. */
  async send(settings: SmtpRecord | undefined, password: string | null, mail: OutgoingMail, signal?: AbortSignal): Promise<SendOutcome> {
    const started = performance.now();
    const elapsed = () => Math.round(performance.now() - started);
    if (!settings) return { ok: false, error: 'no SMTP relay is set: give one in Settings › Alarms or with labeldesk smtp', reply: null, durationMs: 0, permanent: false };
    if (settings.user !== null && password === null) {
      return { ok: false, error: `the SMTP relay ${settings.host} needs the password of '${settings.user}', which this service has not been given since it started`, reply: null, durationMs: 0, permanent: false };
    }
    if (this.trustError && settings.security !== 'none') return { ok: false, error: this.trustError, reply: null, durationMs: 0, permanent: false };
    const transport = this.transportFor(settings, password);
    try {
      const raw = composeMime({ ...mail, from: settings.from, date: new Date() });
      const sent = transport.sendMail(
        raw !== undefined
          ? { envelope: { from: settings.from, to: mail.to }, raw }
          : {
              from: settings.from,
              to: mail.to,
              subject: mail.subject,
              text: mail.text,
              html: mail.html,
              messageId: `<${mail.messageId}>`,
              headers: { 'Auto-Submitted': 'auto-generated' },
            },
      );
      const info = await (signal ? abortable(sent, signal) : sent);
      if (info.rejected.length > 0 && info.accepted.length === 0) {
        return { ok: false, error: `the relay refused every recipient: ${cap(String(info.response))}`, reply: cap(String(info.response)), durationMs: elapsed(), permanent: true };
      }
      return { ok: true, reply: cap(String(info.response)), durationMs: elapsed() };
    } catch (err) {
      return { ok: false, ...describeFailure(err, settings), durationMs: elapsed() };
    }
  }

  close(): void {
    this.transport?.close();
    this.transport = undefined;
    this.key = '';
  }

  private transportFor(settings: SmtpRecord, password: string | null): Transporter<SMTPPool.SentMessageInfo> {
    const key = JSON.stringify([settings.host, settings.port, settings.security, settings.user, password]);
    if (this.transport && key === this.key) return this.transport;
    this.close();
    const timeout = this.options.timeoutMs ?? 30_000;
    this.transport = createTransport({
      pool: true,
      maxConnections: this.options.maxConnections ?? 4,
      maxMessages: Infinity,
      host: settings.host,
      port: settings.port,
      secure: settings.security === 'tls',
      requireTLS: settings.security === 'starttls',
      ignoreTLS: settings.security === 'none',
      auth: settings.user !== null ? { user: settings.user, pass: password ?? '' } : undefined,
      connectionTimeout: timeout,
      greetingTimeout: timeout,
      socketTimeout: timeout,
      maxResponseSize: MAX_REPLY_BYTES,
      // Beside the system's certificates, not instead of them.
      tls: this.ca ? { ca: [...tls.rootCertificates, this.ca] } : undefined,
    } as SMTPPool.Options & { maxResponseSize: number });
    this.key = key;
    return this.transport;
  }
}

function abortable<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(new Error('stopped'));
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(new Error('the service stopped during the delivery'));
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (err: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(err);
      },
    );
  });
}

export function cap(text: string): string {
  const oneLine = text.replace(/[\u0000-\u0008\u000b-\u001f\u007f]/g, ' ');
  return oneLine.length > MAX_LOGGED_CHARS ? `${oneLine.slice(0, MAX_LOGGED_CHARS)}…` : oneLine;
}

/** Nodemailer's error in words, and whether another attempt can help (a 5xx refusal cannot). */
export function describeFailure(err: unknown, settings: Pick<SmtpRecord, 'host' | 'port' | 'user'>): { error: string; reply: string | null; permanent: boolean } {
  const e = err as { code?: string; originalCode?: string; reason?: string; responseCode?: number; response?: string; message?: string; command?: string };
  const relay = `${settings.host}:${settings.port}`;
  const reply = e.response ? cap(e.response) : null;
  const said = reply ? `: ${reply}` : e.message ? `: ${cap(e.message)}` : '';
  const permanent = typeof e.responseCode === 'number' && e.responseCode >= 500 && e.code !== 'EAUTH' && e.code !== 'ETLS';
  if (e.originalCode && CERTIFICATE_CODES.has(e.originalCode)) {
    return {
      error: `the SMTP relay ${relay} showed a certificate this desk does not trust (${cap(e.message ?? e.originalCode)}): name the relay's certificate or its CA in ${SMTP_CA_FILE_ENV} to trust it`,
      reply,
      permanent: false,
    };
  }
  if (e.reason === 'wrong version number') {
    return { error: `the SMTP relay ${relay} does not answer in TLS: its port may take STARTTLS or plain SMTP instead`, reply, permanent: false };
  }
  if (e.code === 'ETLS' && e.command === 'STARTTLS') {
    return { error: `the SMTP relay ${relay} does not offer STARTTLS, which the relay's settings require${said}`, reply, permanent: false };
  }
  switch (e.code) {
    case 'ECONNECTION':
    case 'ESOCKET':
    case 'EDNS':
      return { error: `could not reach the SMTP relay ${relay}${said}`, reply, permanent: false };
    case 'ETIMEDOUT':
      return { error: `the SMTP relay ${relay} did not answer in time`, reply, permanent: false };
    case 'ETLS':
      return { error: `TLS with the SMTP relay ${relay} failed${said}`, reply, permanent: false };
    case 'EAUTH':
      return { error: `the SMTP relay ${relay} refused the login of '${settings.user ?? ''}'${said}`, reply, permanent: false };
    case 'EENVELOPE':
      return { error: `the SMTP relay ${relay} refused the sender or a recipient${said}`, reply, permanent };
    case 'EMESSAGE':
      return { error: `the SMTP relay ${relay} refused the message${said}`, reply, permanent };
    case 'EPROTOCOL':
      return { error: `the SMTP relay ${relay} answered outside the protocol${said}`, reply, permanent: false };
    default:
      return { error: `sending through the SMTP relay ${relay} failed${said}`, reply, permanent };
  }
}
