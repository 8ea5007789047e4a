/** A company's review entry of a report, as the review rules see it. */
import type { Decision } from '../schema/review';

export type ReviewKind = 'comment' | 'acknowledgement' | 'decision';

export interface ReviewEntry {
  id: number;
  reportId: string;
  companyId: string;
  kind: ReviewKind;
  text: string | null;
  decision: Decision | null;
  /** The alert an acknowledgement acknowledged; null for the other kinds. */
  alert: { level: number; timestamp: number } | null;
  keyId: string;
  /** The key's name when the entry was made. */
  keyName: string | null;
  at: string;
}

/** A custom field id in use on the reports a company sees. */
export interface CustomFieldUse {
  customFieldId: string;
  reports: number;
  hasText: boolean;
  hasNumber: boolean;
}
