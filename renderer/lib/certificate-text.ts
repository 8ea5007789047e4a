/**
 * The words of a report's release certificate (components/Certificate.tsx): its sections in
 * order, each signature's meaning and by-line, and the line at the head of every page. Pure, so
 * the tests read the certificate's PDF with the same words.
 */
import type { CertifiedSignature } from '../../schema/certificate';
import { decisionLabel } from './history-text';
import { formatIsoTime } from './time-zone';

/** The certificate's sections, in order: their headings as printed. */
export const CERTIFICATE_SECTIONS = [
  'Readings',
  'Limits and alert status',
  'Excursions',
  'Trim',
  'Custom fields',
  'E-signatures',
  'Review',
  'History (newest first)',
] as const;
export type CertificateSection = (typeof CERTIFICATE_SECTIONS)[number];

const ROLE_WORDS: Record<string, string> = { viewer: 'viewer', reviewer: 'reviewer', approver: 'approver', admin: 'administrator' };

/** "Released — approved for release": what was done, and what the signature means. */
export function signatureMeaning(s: Pick<CertifiedSignature, 'kind' | 'decision' | 'meaning'>): string {
  const done = s.kind === 'decision' && s.decision ? decisionLabel(s.decision) : 'Acknowledged';
  if (!s.meaning) return `${done} — not signed (a tool’s key)`;
  return `${done} — ${s.meaning.charAt(0).toLowerCase()}${s.meaning.slice(1)}`;
}

/** Who signed, their role, and when on their own clock, the zone named. */
export function signatureByLine(s: CertifiedSignature): string {
  const who = s.signer ? `${s.signer.name} (${s.signer.login})` : s.keyName ? `key “${s.keyName}”` : 'a key';
  const role = s.role ? `, ${ROLE_WORDS[s.role] ?? s.role}` : '';
  const zone = s.zone ?? 'UTC';
  return `signed by ${who}${role}, ${formatIsoTime(s.at, { iana: zone }, true)} (${zone})`;
}

/** The line at the head of every printed page of the certificate: its checksum. */
export function certificateHeadText(checksum: string): string {
  return `Certificate SHA-256 ${checksum}`;
}

