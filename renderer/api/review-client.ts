/**
 * Typed calls for a report's review workflow under /local/labelReports/:id/…: the alert
 * explained, the company's review (comments, acknowledgement, decision), the history, the
 * readings as CSV. They go through the client's one request path, so errors read the same as everywhere else.
 */
import { z } from 'zod';
import {
  acknowledgementBodySchema,
  acknowledgementSchema,
  alertExplanationSchema,
  commentBodySchema,
  commentSchema,
  decisionBodySchema,
  decisionSchema,
  reportHistorySchema,
  reviewSchema,
} from '../../schema/review';
import type {
  Acknowledgement,
  AcknowledgementBody,
  AlertExplanation,
  Comment,
  CommentBody,
  DecisionBody,
  ReportHistory,
  Review,
  ReviewDecision,
} from '../../schema/review';
import { bulkBodySchema, bulkResultSchema, type BulkBody, type BulkResult } from '../../schema/bulk';
import { certificateBodySchema, certificateSchema, type Certificate } from '../../schema/certificate';
import { printedBodySchema, reportAccessSchema, type ReportAccessList } from '../../schema/report-access';
import { checked, parse } from './client';
import type { ApiClient } from './client';

export type { Acknowledgement, AlertExplanation, Comment, Review, ReviewDecision, ReportHistory } from '../../schema/review';
export type { HistoryEntry, Excursion, ExplainedRule, Decision } from '../../schema/review';
export type { BulkBody, BulkResult } from '../../schema/bulk';
export type { AccessEntryView, ReportAccessList } from '../../schema/report-access';

function reportPath(id: string, part: string): string {
  return `/local/labelReports/${encodeURIComponent(id)}/${part}`;
}

export interface ReviewClient {
  alerts(id: string, signal?: AbortSignal): Promise<AlertExplanation>;
  review(id: string, signal?: AbortSignal): Promise<Review>;
  comment(id: string, body: CommentBody): Promise<Comment>;
  acknowledge(id: string, body: AcknowledgementBody): Promise<Acknowledgement>;
  decide(id: string, body: DecisionBody): Promise<ReviewDecision>;
  history(id: string, signal?: AbortSignal): Promise<ReportHistory>;
  /** The readings as CSV text, the whole run. */
  readingsCsv(id: string, signal?: AbortSignal): Promise<string>;
  /** The report's audit trail as CSV text, as the company sees it, hashes included. */
  historyCsv(id: string, signal?: AbortSignal): Promise<string>;
  /** One action on a selection of reports, whole or not at all. */
  bulk(body: BulkBody): Promise<BulkResult>;
  /** Tells the service the report is printed (before the print dialog) or was saved as PDF. */
  printed(id: string, format: 'print' | 'pdf'): Promise<void>;
  /** Issues the report's release certificate (recorded as a print or, for pdf, an export). */
  certificate(id: string, format: 'print' | 'pdf'): Promise<Certificate>;
  /** Who viewed, printed or exported the report, newest first (administrators). */
  access(id: string, signal?: AbortSignal): Promise<ReportAccessList>;
}

export function reviewClient(client: ApiClient): ReviewClient {
  return {
    async alerts(id, signal) {
      return parse(alertExplanationSchema, await client.request('GET', reportPath(id, 'alerts'), { signal }), 'alert details');
    },
    async review(id, signal) {
      return parse(reviewSchema, await client.request('GET', reportPath(id, 'review'), { signal }), 'a review');
    },
    async comment(id, body) {
      const answer = await client.request('POST', reportPath(id, 'comments'), { body: checked(commentBodySchema, body) });
      return parse(commentSchema, answer, 'a comment');
    },
    async acknowledge(id, body) {
      const answer = await client.request('PUT', reportPath(id, 'acknowledgement'), { body: checked(acknowledgementBodySchema, body) });
      return parse(acknowledgementSchema, answer, 'an acknowledgement');
    },
    async decide(id, body) {
      const answer = await client.request('PUT', reportPath(id, 'decision'), { body: checked(decisionBodySchema, body) });
      return parse(decisionSchema, answer, 'a decision');
    },
    async history(id, signal) {
      return parse(reportHistorySchema, await client.request('GET', reportPath(id, 'history'), { signal }), 'a history');
    },
    async readingsCsv(id, signal) {
      return parse(z.string(), await client.request('GET', reportPath(id, 'readings.csv'), { signal, as: 'text' }), 'readings');
    },
    async historyCsv(id, signal) {
      return parse(z.string(), await client.request('GET', reportPath(id, 'history.csv'), { signal, as: 'text' }), 'a history');
    },
    async bulk(body) {
      const answer = await client.request('POST', '/local/labelReports/bulk', { body: checked(bulkBodySchema, body) });
      return parse(bulkResultSchema, answer, 'the selection acted on');
    },
    async printed(id, format) {
      await client.request('POST', reportPath(id, 'printed'), { body: checked(printedBodySchema, { format }) });
    },
    async certificate(id, format) {
      const answer = await client.request('POST', reportPath(id, 'certificate'), { body: checked(certificateBodySchema, { format }) });
      return parse(certificateSchema, answer, 'a release certificate');
    },
    async access(id, signal) {
      return parse(reportAccessSchema, await client.request('GET', reportPath(id, 'access'), { signal }), 'who saw the report');
    },
  };
}
