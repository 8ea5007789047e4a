/**
 * Refusals in words for people at the desk: no permission ids, no JSON paths, no API field
 * names. The service's messages are written for API clients; here a refusal becomes one sentence
 * that says what cannot be done and, where it helps, why.
 */
import type { z } from 'zod';
import { ApiClientError } from '../api/client';

/** API names that show up in the service's and the schemas' messages, and what staff call them. */
const FIELD_WORDS: [RegExp, string][] = [
  [/\bcustomFieldId\b/g, 'a field id'],
  [/\blabelReference\b/g, 'the reference'],
  [/\bhasFlag\b/g, 'Flagged'],
  [/\bisArchived\b/g, 'Archived'],
  [/\b(?:limits\.)?minTemperature\b/g, 'the minimum temperature'],
  [/\b(?:limits\.)?maxTemperature\b/g, 'the maximum temperature'],
  [/\b(?:limits\.)?minHumidity\b/g, 'the minimum humidity'],
  [/\b(?:limits\.)?maxHumidity\b/g, 'the maximum humidity'],
  [/\btrim\.startTime\b/g, 'the trim start'],
  [/\btrim\.endTime\b/g, 'the trim end'],
  [/\blabel report\b/g, 'report'],
];

/** A permission id such as `labelReports:update`, with the words around it that only name it. */
const PERMISSION = /\s*\(?(?:it )?(?:lacks|needs|requires)? ?(?:the )?\b[a-z][A-Za-z]*:[a-z][A-Za-z]*\b(?: permission)?\)?/g;
/** A JSON path prefix such as `$.limits.minTemperature: ` or `text: `. */
const PATH_PREFIX = /^(?:\$[\w.[\]]*|[A-Za-z_][\w.]*)\s*:\s+/;

function sentence(text: string): string {
  const t = text.trim();
  if (t === '') return t;
  const first = t[0].toUpperCase() + t.slice(1);
  return /[.!?]$/.test(first) ? first : `${first}.`;
}

/** A message with field ids put in words, any JSON path prefix and permission id taken out. */
export function plainText(message: string): string {
  let text = message.replace(PATH_PREFIX, '').replace(PERMISSION, '');
  for (const [pattern, words] of FIELD_WORDS) text = text.replace(pattern, words);
  return sentence(text);
}

/** The first problem a form check found, as one sentence (a form shows one thing to fix at a time). */
export function plainZodError(error: z.ZodError): string {
  return plainText(error.issues[0]?.message ?? 'That value cannot be used');
}

/**
 * One sentence for a failed request. `action` completes "This key may not …", e.g. "change the
 * limits"; a refusal for the company's role keeps the service's reason, in words.
 */
export function plainApiError(err: unknown, action: string): string {
  if (err instanceof ApiClientError) {
    if (err.code === 'PERMISSION_DENIED') return `This key may not ${action}.`;
    if (err.status === 404) return 'This report is not there any more, or your company cannot see it.';
    if (err.status === 401) return 'The key is no longer accepted (it may have been revoked). Connect with another key.';
    return plainText(err.message);
  }
  return plainText(err instanceof Error ? err.message : String(err));
}
