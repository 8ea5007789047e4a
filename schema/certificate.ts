/**
 * Shapes of a report's release certificate (docs/review-and-audit.md#release-certificates): what
 * the service answers when one is issued (POST /local/labelReports/:id/certificate), and what the
 * access chain keeps of it, in the detail of the entry that records its issue.
 */
import { z } from 'zod';
import { DECISIONS } from './review';

export const CHECKSUM_PATTERN = /^[0-9a-f]{64}$/;

/** One signature the certificate certifies: the standing decision or acknowledgement, as its review entry holds it. */
export const certifiedSignatureSchema = z.object({
  /** The review entry's id: its place in the report's review chain. */
  entry: z.int().positive(),
  /** The review entry's hash in that chain. */
  hash: z.string().nullable(),
  kind: z.enum(['decision', 'acknowledgement']),
  decision: z.enum(DECISIONS).nullable(),
  /** What the signature means ("Approved for release"); null when a tool's key wrote the entry unsigned. */
  meaning: z.string().nullable(),
  signer: z.object({ id: z.string(), login: z.string(), name: z.string() }).nullable(),
  /** The key's name, when a tool's key wrote it. */
  keyName: z.string().nullable(),
  /** The signer's role at the desk when the certificate was issued. */
  role: z.string().nullable(),
  at: z.string(),
  /** The signer's time zone (IANA), as they signed. */
  zone: z.string().nullable(),
});
export type CertifiedSignature = z.infer<typeof certifiedSignatureSchema>;

/** What a certificate certifies: the report at one version, with the company's signatures standing then. */
export const certifiedStateSchema = z.object({
  reportId: z.string(),
  /** The company whose review it certifies. */
  companyId: z.string(),
  /** The newest entry of the report's change log: the version of its content. */
  changeLog: z.object({ seq: z.int().nonnegative(), hash: z.string().nullable() }),
  signatures: z.array(certifiedSignatureSchema),
});
export type CertifiedState = z.infer<typeof certifiedStateSchema>;

/** The detail of the access entry that records a certificate's issue. */
export const certificateRecordSchema = certifiedStateSchema.extend({
  checksum: z.string().regex(CHECKSUM_PATTERN),
  /** For the command line: which account ran it, on which computer. */
  ranBy: z.string().optional(),
});
export type CertificateRecord = z.infer<typeof certificateRecordSchema>;

export const certificateBodySchema = z
  .object({
    format: z.enum(['print', 'pdf']).optional().describe('print (default): printed from the app; pdf: saved as PDF'),
  })
  .strict();
export type CertificateBody = z.infer<typeof certificateBodySchema>;

export const certificateSchema = certifiedStateSchema.extend({
  checksum: z.string().describe('SHA-256 (hex) over the certified state; labeldesk audit certificate checks it'),
  issuedAt: z.string().describe('ISO 8601 UTC'),
  /** The access entry that records the issue; null when the command line records it itself. */
  entry: z.int().positive().nullable(),
});
export type Certificate = z.infer<typeof certificateSchema>;
