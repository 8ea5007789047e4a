/**
 * How each kind of refusal of the rules (model/errors.ts) is answered over HTTP: the status of
 * http/errors.ts's table, with the code and message the rule gave, through the app's own error
 * handler.
 */
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { registerErrorHandling, toApiError } from '../../http/errors';
import {
  ConflictError,
  InvalidInputError,
  NotFoundError,
  PermissionDeniedError,
  RoleForbiddenError,
  UnauthenticatedError,
  UnavailableError,
  type Refusal,
} from '../../model/errors';

const REFUSALS: [Refusal, number, string][] = [
  [new UnauthenticatedError('API_KEY_MISSING', 'an API key is required'), 401, 'Unauthorized'],
  [new PermissionDeniedError('webhooks:manage'), 403, 'Forbidden'],
  [new RoleForbiddenError('Only the label report owner can add a tap'), 403, 'Forbidden'],
  [new NotFoundError('REPORT_NOT_FOUND', "no label report 'x' is visible to this API key"), 404, 'Not Found'],
  [new InvalidInputError('INVALID_PARAMETER', "range 'trimmed': the report has no trim"), 400, 'Bad Request'],
  [new ConflictError('WEBHOOK_DISABLED', 'the webhook is disabled'), 409, 'Conflict'],
  [new UnavailableError('SYNC_BUSY', 'try again shortly', 7), 503, 'Service Unavailable'],
];

describe('refusals answered', () => {
  test('each kind has its status; code and message are the rule’s', () => {
    for (const [refusal, status, reason] of REFUSALS) {
      expect(toApiError(refusal).toBody()).toEqual({ statusCode: status, error: reason, code: refusal.code, message: refusal.message });
    }
    expect(new PermissionDeniedError('sync:manage')).toMatchObject({ code: 'PERMISSION_DENIED', message: 'the API key lacks the sync:manage permission' });
    expect(new RoleForbiddenError('no')).toMatchObject({ code: 'ROLE_FORBIDDEN', name: 'RoleForbiddenError' });
  });

  describe('through the error handler', () => {
    let app: FastifyInstance;
    beforeAll(async () => {
      app = Fastify();
      registerErrorHandling(app, () => {});
      REFUSALS.forEach(([refusal], index) => {
        app.get(`/refusal/${index}`, async () => {
          throw refusal;
        });
      });
      await app.ready();
    });
    afterAll(() => app.close());

    test('the body and status, and Retry-After for what is unavailable for now', async () => {
      for (const [index, [refusal, status]] of REFUSALS.entries()) {
        const res = await app.inject({ method: 'GET', url: `/refusal/${index}` });
        expect(res.statusCode).toBe(status);
        expect(res.json()).toMatchObject({ statusCode: status, code: refusal.code, message: refusal.message });
        expect(res.headers['retry-after']).toBe(refusal instanceof UnavailableError ? '7' : undefined);
      }
    });
  });
});
