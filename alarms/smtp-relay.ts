/**
 * The company's SMTP relay, through nodemailer: one pooled transport per set of settings,
 * replies read under a cap, and every failure named in words a person at the desk can act on
 * (the relay unreachable, the login refused, a recipient refused), with whether trying again
 * can help.
 */
import { createTransport, type Transporter } from 'nodemailer';
import type SMTPPool from 'nodemailer/lib/smtp-pool';
import type { SmtpRecord } from '../db/alarm-store';

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

export interface RelayOptions {
  /** Per step of the exchange (connecting, the greeting, each reply). */
  timeoutMs?: number;
  maxConnections?: number;
  /** Certificates the relay's TLS is checked against, beside the system's (a test's own CA). */
  ca?: string | Buffer;
}

export class SmtpRelay {
  private transport: Transporter<SMTPPool.SentMessageInfo> | undefined;
  private key = '';

  constructor(private readonly options: RelayOptions = {}) {}

  /** Sends one mail with these settings; never throws. */
  async send(settings: SmtpRecord | undefined, password: string | null, mail: OutgoingMail, signal?: AbortSignal): Promise<SendOutcome> {
    const started = performance.now();
    const elapsed = () => Math.round(performance.now() - started);
    if (!settings) return { ok: false, error: 'no SMTP relay is set: give one in Settings › Alarms or with labeldesk smtp', reply: null, durationMs: 0, permanent: false };
    if (settings.user !== null && password === null) {
      return { ok: false, error: `the SMTP relay ${settings.host} needs the password of '${settings.user}', which this service has not been given since it started`, reply: null, durationMs: 0, permanent: false };
    }
    const transport = this.transportFor(settings, password);
    try {
      const sent = transport.sendMail({
        from: settings.from,
        to: mail.to,
        subject: mail.subject,
        text: mail.text,
        html: mail.html,
        messageId: `<${mail.messageId}>`,
        headers: { 'Auto-Submitted': 'auto-generated' },
      });
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
      tls: this.options.ca ? { ca: this.options.ca } : undefined,
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
  const e = err as { code?: string; responseCode?: number; response?: string; message?: string; command?: string };
  const relay = `${settings.host}:${settings.port}`;
  const reply = e.response ? cap(e.response) : null;
  const said = reply ? `: ${reply}` : e.message ? `: ${cap(e.message)}` : '';
  const permanent = typeof e.responseCode === 'number' && e.responseCode >= 500 && e.code !== 'EAUTH';
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
