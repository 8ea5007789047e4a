/**
 * An alarm e-mail as the relay receives it, written in one piece: the headers, and the plain
 * text and HTML as two quoted-printable parts of one multipart/alternative. Nodemailer would
 * build the same message from a tree of streams, header by header, at every send: most of the
 * cost of a mail on a fast relay. Given whole (nodemailer's `raw`), the message goes out as
 * one chunk. Only for plain addresses (`a@b`, ASCII): anything else is left to nodemailer,
 * which encodes display names and international addresses.
 */
import { encodeWords } from 'nodemailer/lib/mime-funcs';
import { encode as encodeQp, wrap as wrapQp } from 'nodemailer/lib/qp';

export interface MimeMail {
  from: string;
  to: readonly string[];
  subject: string;
  text: string;
  html: string;
  /** Without angle brackets. */
  messageId: string;
  date: Date;
}

/** An address nodemailer would send as it is: no display name, no quoting, ASCII only. */
const PLAIN_ADDRESS = /^[A-Za-z0-9.!#$%&'*+/=?^_`{|}~-]+@[A-Za-z0-9.-]+$/;
/** A Message-ID part that needs no quoting. */
const PLAIN_ID = /^[A-Za-z0-9._%+-]+@[A-Za-z0-9.-]+$/;

/** The message, or undefined when an address or the id is not plain (nodemailer composes it then). */
export function composeMime(mail: MimeMail): string | undefined {
  if (!PLAIN_ADDRESS.test(mail.from) || mail.to.length === 0 || !mail.to.every((a) => PLAIN_ADDRESS.test(a)) || !PLAIN_ID.test(mail.messageId)) return undefined;
  const subject = `Subject: ${encodeWords(oneLine(mail.subject), 'Q', 52)}`;
  // SMTP's limit for a line is 998 characters; folding a longer subject is left to nodemailer.
  if (subject.length > 900) return undefined;
  // A boundary with "=_" never occurs in quoted-printable text, which writes every "=" as =3D.
  const boundary = `--_=_labeldesk_${mail.messageId.replace(/[^A-Za-z0-9]/g, '')}`;
  const lines = [
    `From: ${mail.from}`,
    foldAddresses('To', mail.to),
    subject,
    `Message-ID: <${mail.messageId}>`,
    `Date: ${mail.date.toUTCString().replace(/GMT$/, '+0000')}`,
    'MIME-Version: 1.0',
    'Auto-Submitted: auto-generated',
    `Content-Type: multipart/alternative; boundary="${boundary}"`,
    '',
    `--${boundary}`,
    'Content-Type: text/plain; charset=utf-8',
    'Content-Transfer-Encoding: quoted-printable',
    '',
    quotedPrintable(mail.text),
    `--${boundary}`,
    'Content-Type: text/html; charset=utf-8',
    'Content-Transfer-Encoding: quoted-printable',
    '',
    quotedPrintable(mail.html),
    `--${boundary}--`,
    '',
  ];
  return lines.join('\r\n');
}

function oneLine(text: string): string {
  return text.replace(/[\r\n]+/g, ' ');
}

/** Each address after the first on a line of its own once the line would pass 76 characters. */
function foldAddresses(name: string, addresses: readonly string[]): string {
  let out = `${name}: `;
  let line = out.length;
  addresses.forEach((address, i) => {
    const piece = i === 0 ? address : `, ${address}`;
    if (i > 0 && line + piece.length > 76) {
      out += `,\r\n ${address}`;
      line = 1 + address.length;
    } else {
      out += piece;
      line += piece.length;
    }
  });
  return out;
}

/** Lines end in CRLF, as the relay's text does. */
function quotedPrintable(text: string): string {
  return wrapQp(encodeQp(Buffer.from(text.replace(/\r?\n/g, '\r\n'), 'utf8')), 76);
}
