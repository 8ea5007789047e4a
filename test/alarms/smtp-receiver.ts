/**
 * A real SMTP server on 127.0.0.1 (the `smtp-server` package, by nodemailer's authors) that
 * keeps each mail it takes: envelope, headers and body as sent. `hold` keeps the relay's answer
 * to a mail's data back until released: a delivery caught between the relay and its record.
 */
import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import { SMTPServer, type SMTPServerOptions } from 'smtp-server';

export interface ReceivedMail {
  from: string;
  to: string[];
  raw: string;
  /** The raw text with quoted-printable undone: what a reader sees, parts and all. */
  text: string;
  messageId: string | undefined;
  subject: string | undefined;
  /** Whether the session was in TLS (implicit or after STARTTLS) when the mail came. */
  secure: boolean;
  /** Who logged in (AUTH), if anyone. */
  user: string | undefined;
}

export interface SmtpReceiver {
  port: number;
  mails: ReceivedMail[];
  /** Mails whose data arrived, answered or not. */
  seen: ReceivedMail[];
  /** Resolves when `n` mails were taken (answered 250). */
  received(n: number): Promise<ReceivedMail[]>;
  /** Resolves when `n` mails arrived, answered or held. */
  arrived(n: number): Promise<ReceivedMail[]>;
  /** While set, a mail's data is read but not answered. */
  hold: boolean;
  close(): Promise<void>;
}

export async function startSmtpReceiver(port = 0, options: Partial<SMTPServerOptions> = {}): Promise<SmtpReceiver> {
  const waiters: { n: number; list: 'mails' | 'seen'; resolve: (m: ReceivedMail[]) => void }[] = [];
  const receiver: SmtpReceiver = {
    port: 0,
    mails: [],
    seen: [],
    hold: false,
    received: (n) => wait(n, 'mails'),
    arrived: (n) => wait(n, 'seen'),
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
      }),
  };
  function wait(n: number, list: 'mails' | 'seen'): Promise<ReceivedMail[]> {
    if (receiver[list].length >= n) return Promise.resolve(receiver[list]);
    return new Promise((resolve) => waiters.push({ n, list, resolve }));
  }
  function settle(): void {
    for (const w of [...waiters]) {
      if (receiver[w.list].length >= w.n) {
        waiters.splice(waiters.indexOf(w), 1);
        w.resolve(receiver[w.list]);
      }
    }
  }
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    // A held session of a killed sender is cut at close instead of waited for.
    closeTimeout: 100,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        const raw = Buffer.concat(chunks).toString('utf8');
        const header = (name: string) => new RegExp(`^${name}:\\s*(.*)$`, 'im').exec(raw.split(/\r?\n\r?\n/)[0])?.[1]?.trim();
        const mail: ReceivedMail = {
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          to: session.envelope.rcptTo.map((r) => r.address),
          raw,
          text: quotedPrintableDecoded(raw),
          messageId: header('Message-ID'),
          subject: header('Subject'),
          secure: session.secure,
          user: typeof session.user === 'string' ? session.user : undefined,
        };
        receiver.seen.push(mail);
        settle();
        if (receiver.hold) return; // never answered: the sender waits
        receiver.mails.push(mail);
        settle();
        callback();
      });
    },
    ...options,
  });
  // A sender that drops a TLS handshake it does not trust is an event of the test, not a crash.
  server.on('error', () => {});
  server.listen(port, '127.0.0.1');
  await once(server.server, 'listening');
  receiver.port = (server.server.address() as AddressInfo).port;
  return receiver;
}

/** Waits until `check` holds, looking again after each turn of a short timer: a state, never a time. */
export async function until<T>(check: () => T | undefined | false | null): Promise<T> {
  for (;;) {
    const value = check();
    if (value) return value;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

function quotedPrintableDecoded(raw: string): string {
  const joined = raw.replace(/=\r?\n/g, '');
  return Buffer.from(joined.replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16))), 'latin1').toString('utf8');
}
