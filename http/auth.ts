/**
 * Who is calling: the API key from the x-api-key header or the key/apiKey query parameters
 * (the interface names both spellings), resolved to a company and its permissions. Only this
 * layer knows where a key travels; the service is handed the caller.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ApiError } from '../schema/api-error';
import { ForbiddenError } from '../model/errors';
import type { ApiKeys, Caller } from '../service/api-keys';

declare module 'fastify' {
  interface FastifyRequest {
    /** Set for the routes behind `requireApiKey`; null elsewhere. */
    caller: Caller | null;
  }
}

export const AUTH_HEADER = 'x-api-key';
/** Query parameters that carry the API key: every route accepts them beside its own. */
export const AUTH_QUERY_PARAMETERS = ['key', 'apiKey'] as const;

export function presentedKeys(request: FastifyRequest): Set<string> {
  const found = new Set<string>();
  const add = (value: unknown) => {
    // An empty value is no key at all, not a second, different one.
    if (typeof value === 'string') {
      if (value !== '') found.add(value);
    }
    else if (Array.isArray(value)) for (const v of value) add(v);
  };
  add(request.headers[AUTH_HEADER]);
  const query = request.query as Record<string, unknown> | undefined;
  for (const name of AUTH_QUERY_PARAMETERS) add(query?.[name]);
  return found;
}

const READS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * What a session that must change its password may still reach behind the key: who it is, and
 * the company's settings, whose password rules the change form states before the person types.
 * Reads only: an administrator whose change is due changes no setting either. The change itself,
 * sign-out and activity are session routes, before any key.
 */
const OPEN_WHILE_PASSWORD_CHANGE_DUE = new Set(['GET /local/session', 'GET /local/settings']);

export function authenticate(apiKeys: ApiKeys, request: FastifyRequest): Caller {
  const keys = presentedKeys(request);
  if (keys.size > 1) {
    throw new ApiError(401, 'API_KEY_CONFLICT', 'the request carries two different API keys; send exactly one');
  }
  const [key] = keys;
  // A write is a person's doing; a read may be an open page polling on its own (the page says
  // when its person is active through /local/session/activity).
  const caller = apiKeys.authenticate(key, !READS.has(request.method));
  if (caller.passwordChangeDue && !OPEN_WHILE_PASSWORD_CHANGE_DUE.has(`${request.method} ${request.routeOptions.url ?? ''}`)) throw passwordChangeRequired(caller.passwordChangeDue);
  return caller;
}

const CHANGE_REASON: Record<NonNullable<Caller['passwordChangeDue']>, string> = {
  firstSignIn: 'an administrator chose this password',
  reset: 'an administrator reset this password',
  expired: 'this password has expired',
};

function passwordChangeRequired(due: NonNullable<Caller['passwordChangeDue']>): ForbiddenError {
  return new ForbiddenError(
    'PASSWORD_CHANGE_REQUIRED',
    `${CHANGE_REASON[due]}: choose a new one (POST /local/session/password) before anything else`,
  );
}

/** Every route registered in `scope` answers 401 unless the request carries a valid key. */
export function requireApiKey(scope: FastifyInstance, apiKeys: ApiKeys): void {
  // Declared up front (null until the hook runs) so every request object keeps one shape.
  scope.decorateRequest('caller', null);
  scope.addHook('onRequest', async (request) => {
    request.caller = authenticate(apiKeys, request);
  });
}

/** The caller of a route behind `requireApiKey`. */
export function callerOf(request: FastifyRequest): Caller {
  // Only a route registered outside the key's scope gets here: a programming error, not a refusal.
  if (!request.caller) throw new Error(`${request.routeOptions.url} is not behind requireApiKey`);
  return request.caller;
}
