/**
 * The service's refusals in plain words for the desk. The API's messages are written for
 * programmers (`the API key lacks the labelReports:update permission`); people at a warehouse
 * need to know what happened and what they can do, without permission or field ids.
 */
import { ApiClientError, BAD_RESPONSE, errorMessage, INVALID_INPUT, NETWORK_ERROR } from '../api/client';

const PERMISSION_WORDS: Record<string, string> = {
  'labelReports:read': 'This key may not read reports.',
  'labelReports:update': 'This key may only read reports, not change them.',
  'labelReports:create': 'This key may not take in labels.',
  'apiKeys:manage': 'This key may not manage API keys.',
  'webhooks:manage': 'This key may not manage webhooks.',
};

export const SIGNED_OUT = 'This key is no longer accepted: it was revoked, or it never existed. Sign in with another key.';
export const UNREACHABLE = 'The LabelDesk service is not reachable. Check that LabelDesk is running; the list comes back when it answers again.';

function sentence(text: string): string {
  const t = text.trim();
  if (!t) return 'Something went wrong.';
  const first = t.charAt(0).toUpperCase() + t.slice(1);
  return /[.!?]$/.test(first) ? first : `${first}.`;
}

/** A sentence for anything thrown by the API client. */
export function plainProblem(err: unknown): string {
  if (!(err instanceof ApiClientError)) return sentence(errorMessage(err));
  switch (err.code) {
    case NETWORK_ERROR:
      return UNREACHABLE;
    case 'API_KEY_INVALID':
    case 'API_KEY_MISSING':
      return SIGNED_OUT;
    case 'PERMISSION_DENIED': {
      const permission = /lacks the (\S+) permission/.exec(err.message)?.[1];
      return (permission && PERMISSION_WORDS[permission]) ?? 'This key may not do this.';
    }
    case 'DATABASE_BUSY':
      return 'The database is busy with another task, such as an import. Try again in a moment.';
    case 'REPORT_NOT_FOUND':
      return 'This report does not exist, or your company cannot see it.';
    case 'INVALID_FILTER':
    case 'INVALID_ORDER':
      return `The service cannot filter this way: ${sentence(err.message).replace(/^./, (c) => c.toLowerCase())}`;
    case 'INTERNAL_ERROR':
      return `The service failed unexpectedly. ${sentence(err.message)}`;
    case BAD_RESPONSE:
    case INVALID_INPUT:
      return sentence(err.message);
    default:
      return sentence(err.message);
  }
}

/** True when the failure means the key itself is no longer any good. */
export function isSignedOut(err: unknown): boolean {
  return err instanceof ApiClientError && err.status === 401;
}
