/** A company's review entry of a report, as the review rules see it. */
import type { Decision } from '../schema/review';

export type ReviewKind = 'comment' | 'acknowledgement' | 'decision' | 'withdrawal';

/** The person who wrote an entry, as they were named when it was written. */
export interface EntryPerson {
  id: string;
  login: string;
  name: string;
}

export interface ReviewEntry {
  id: number;
  reportId: string;
  companyId: string;
  kind: ReviewKind;
  text: string | null;
  decision: Decision | null;
  /** The alert an acknowledgement acknowledged, or the alert a withdrawal found; null for the other kinds. */
  alert: { level: number; timestamp: number } | null;
  /** The key of the tool that wrote it; null when a signed-in person did. */
  keyId: string | null;
  /** The key's name when the entry was made. */
  keyName: string | null;
  person: EntryPerson | null;
  /** A signature's meaning ("Reviewed", "Approved for release", …); null when the entry is not signed. */
  meaning: string | null;
  /** The signer's time zone (IANA) when signed. */
  zone: string | null;
  at: string;
}

/** A custom field id in use on the reports a company sees. */
export interface CustomFieldUse {
  customFieldId: string;
  reports: number;
  hasText: boolean;
  hasNumber: boolean;
}
