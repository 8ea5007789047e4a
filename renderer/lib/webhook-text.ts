/**
 * Webhooks in words for the people at the desk. The service answers for programs (codes,
 * socket errors, event ids); warehouse staff need to know what happened and what to do, and IT
 * still needs the technical detail, so both are kept where they differ.
 */
import { ApiClientError, errorMessage, INVALID_INPUT } from '../api/client';
import type { Delivery, ReportEventType } from '../../schema/webhooks';

export const EVENT_TEXT: Record<ReportEventType, string> = {
  'labelReport.activated': 'Label activated (a new report starts)',
  'labelReport.tapped': 'Label tapped (new readings arrive)',
  'labelReport.alarm': 'Alarm raised (an alert rose past a rule)',
};

/** The message types of the deliveries log: report events and the test event. */
export function messageTypeText(type: string): string {
  if (type === 'webhook.test') return 'Test event';
  return type in EVENT_TEXT ? EVENT_TEXT[type as ReportEventType].replace(/ \(.*\)$/, '') : type;
}

export const DELIVERY_STATUS_TEXT: Record<Delivery['status'], string> = {
  pending: 'Scheduled',
  succeeded: 'Delivered',
  failed: 'Failed',
};

/** Sentences for what the service could record about a failed attempt; null when there is nothing. */
export function deliveryErrorText(error: string | null): { text: string; detail: string | null } | null {
  if (error === null) return null;
  const plain = (text: string) => ({ text, detail: error });
  if (/ECONNREFUSED/.test(error)) return plain('Nothing was listening at that address.');
  if (/ENOTFOUND|EAI_AGAIN/.test(error)) return plain('The computer name in the address could not be found.');
  if (/ECONNRESET|socket hang up/.test(error)) return plain('The receiver broke off the connection.');
  if (/^no answer within/.test(error)) return plain('The receiver did not answer in time.');
  if (/^refused target/.test(error)) return plain('LabelDesk does not send webhooks to that kind of address.');
  if (/redirect/.test(error)) return plain('The receiver sent the message elsewhere (a redirect); LabelDesk does not follow redirects.');
  const answered = /^answered (\d+)$/.exec(error);
  if (answered) return { text: `The receiver did not accept the message (it answered ${answered[1]}).`, detail: null };
  return { text: error, detail: null };
}

/**
 * A refusal of a webhook request as a sentence that says what to do. Codes the renderer knows
 * get their own words; anything else keeps the service's message, which names the input.
 */
export function webhookErrorText(err: unknown): string {
  if (!(err instanceof ApiClientError)) return errorMessage(err);
  switch (err.code) {
    case 'PERMISSION_DENIED':
      return 'This key cannot manage webhooks. Use the desktop app’s own key, or a key that is allowed to manage webhooks.';
    case 'WEBHOOK_NOT_FOUND':
      return 'This endpoint no longer exists: it may have been deleted in another window. The list has been read again.';
    case 'WEBHOOK_DISABLED':
      return 'This endpoint is disabled. Enable it first, then try again.';
    case 'MESSAGE_NOT_FOUND':
      return 'That message is no longer in the log (attempts are kept for 30 days).';
    case INVALID_INPUT:
    case 'INVALID_BODY': {
      const url = /(?:^|[$.;]\s*)url: ([^;]*)/.exec(err.message);
      if (url) return `That address cannot receive webhooks (${url[1].trim()}).`;
      return `The service did not accept this: ${err.message}`;
    }
    default:
      return err.message;
  }
}
