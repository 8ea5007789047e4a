/**
 * The refusals of the rules, in their own words: what went wrong, a stable code for programs and
 * a message naming the input. They know nothing of HTTP; http/errors.ts answers each kind with
 * its status, and the command line prints their messages.
 */
import type { Permission } from '../schema/report';

/** What kind of refusal it is: each answers one way, whoever shows it. */
export type RefusalKind =
  | 'unauthenticated'
  | 'permissionDenied'
  | 'roleForbidden'
  | 'notFound'
  | 'invalidInput'
  | 'conflict'
  | 'unavailable';

export abstract class Refusal extends Error {
  abstract readonly kind: RefusalKind;

  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
    this.name = new.target.name;
  }
}

/** No key, or one that is unknown or revoked. */
export class UnauthenticatedError extends Refusal {
  readonly kind = 'unauthenticated';
}

/** The key lacks a permission the operation needs, whatever the report. */
export class PermissionDeniedError extends Refusal {
  readonly kind = 'permissionDenied';

  constructor(readonly permission: Permission) {
    super('PERMISSION_DENIED', `the API key lacks the ${permission} permission`);
  }
}

/** The company's role on the report does not allow it. */
export class RoleForbiddenError extends Refusal {
  readonly kind = 'roleForbidden';

  constructor(message: string) {
    super('ROLE_FORBIDDEN', message);
  }
}

/** What the request names does not exist, or is not the caller's to see. */
export class NotFoundError extends Refusal {
  readonly kind = 'notFound';
}

/** The input breaks a rule; the code says which kind of input (INVALID_BODY, INVALID_PARAMETER, …). */
export class InvalidInputError extends Refusal {
  readonly kind = 'invalidInput';
}

/** The request is sound but the state does not allow it now (an id taken, a webhook disabled, …). */
export class ConflictError extends Refusal {
  readonly kind = 'conflict';
}

/** Nothing was done because the service cannot do it now; worth trying again after `retryAfterSeconds`. */
export class UnavailableError extends Refusal {
  readonly kind = 'unavailable';

  constructor(
    code: string,
    message: string,
    readonly retryAfterSeconds?: number,
  ) {
    super(code, message);
  }
}

export const invalidInput = (code: string, message: string) => new InvalidInputError(code, message);

/** Refused for who is asking, with its own code (a signature's password wrong, a grant beyond the caller's own). */
export class ForbiddenError extends Refusal {
  readonly kind = 'roleForbidden';
}
