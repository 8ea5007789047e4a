/**
 * Who is calling: the API key from the x-api-key header or the key/apiKey query parameters
 * (the interface names both spellings), resolved to a company and its permissions.
 */
import type { FastifyRequest } from 'fastify';
import { ApiError } from '../schema/api-error';
import type { ApiKeys, Caller } from '../service/api-keys';

declare module 'fastify' {
  interface FastifyRequest {
    caller: Caller;
  }
}

export function presentedKeys(request: FastifyRequest): Set<string> {
  const found = new Set<string>();
  const add = (value: unknown) => {
    // An empty value is no key at all, not a second, different one.
    if (typeof value === 'string') {
      if (value !== '') found.add(value);
    }
    else if (Array.isArray(value)) for (const v of value) add(v);
  };
  add(request.headers['x-api-key']);
  const query = request.query as Record<string, unknown> | undefined;
  add(query?.key);
  add(query?.apiKey);
  return found;
}

export function authenticate(apiKeys: ApiKeys, request: FastifyRequest): Caller {
  const keys = presentedKeys(request);
  if (keys.size > 1) {
    throw new ApiError(401, 'API_KEY_CONFLICT', 'the request carries two different API keys; send exactly one');
  }
  const [key] = keys;
  return apiKeys.authenticate(key);
}
