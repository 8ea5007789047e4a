/**
 * People at the desk. Signing in, unlocking a locked session and signing out come before any
 * key (their own scope, outside the key check): the session token they answer travels like an
 * API key. The users of a company and its settings for them are managed behind the key, with
 * their checks declared like every route's; the service judges who may (admins only; a key while
 * its company has nobody yet, for the first administrator).
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { ApiError } from '../../schema/api-error';
import {
  changePasswordBodySchema,
  companySettingsSchema,
  createUserBodySchema,
  passwordBodySchema,
  settingsBodySchema,
  signedInSchema,
  signInBodySchema,
  unlockBodySchema,
  updateUserBodySchema,
  userEventSchema,
  userInfoSchema,
} from '../../schema/people';
import type { ServedService } from '../served-service';
import { callerOf, presentedKeys } from '../auth';
import { judgeBodiesLate, parseObjectBody } from '../body';
import { waitForDatabase } from '../../db/busy';
import { shape, type OperationDoc } from '../openapi';
import type { RouteChecks } from '../route-checks';

const SIGNED_IN = shape('SignedIn', signedInSchema);
const USER_INFO = shape('UserInfo', userInfoSchema);
const SETTINGS = shape('CompanySettings', companySettingsSchema);
const userId = { id: z.string().describe('The user’s id, as listed') };

const SIGN_IN_DOC: OperationDoc = {
  operationId: 'signIn',
  summary: 'Sign a person in with login and password; the token answered is sent as x-api-key from then on',
  description:
    'A wrong login or password answers 401 SIGN_IN_FAILED, without saying which. After five failures in a row the account locks (401 ACCOUNT_LOCKED) until an administrator unlocks it.',
  body: shape('SignInBody', signInBodySchema),
  responses: { 200: { description: 'The session', shape: SIGNED_IN } },
  refusals: [401],
  public: true,
};
const UNLOCK_DOC: OperationDoc = {
  operationId: 'unlockSession',
  summary: 'Unlock a session locked after inactivity: its token as x-api-key, the same person’s password in the body',
  body: shape('UnlockBody', unlockBodySchema),
  responses: { 200: { description: 'The session, unlocked', shape: SIGNED_IN } },
  refusals: [401],
  public: true,
};
const CHANGE_PASSWORD_DOC: OperationDoc = {
  operationId: 'changePassword',
  summary: 'The person of the session (its token as x-api-key) chooses a new password; their other sessions end',
  description:
    'The current password is entered again (a wrong one answers 401 PASSWORD_WRONG and counts as a failed sign-in). The new one has the company’s least length (400 WEAK_PASSWORD) and is none of the person’s last passwords (400 PASSWORD_REUSED). This is the only thing a session whose passwordChangeDue is set may do besides reading /local/session and /local/settings (the password rules) and signing out: everything else answers 403 PASSWORD_CHANGE_REQUIRED.',
  body: shape('ChangePasswordBody', changePasswordBodySchema),
  responses: { 200: { description: 'The same session, its change no longer due', shape: SIGNED_IN } },
  refusals: [400, 401],
  public: true,
};
const SIGN_OUT_DOC: OperationDoc = {
  operationId: 'signOut',
  summary: 'End the session whose token is sent as x-api-key (locked or not)',
  responses: { 204: { description: 'Signed out' } },
  refusals: [401],
  public: true,
};
const ACTIVITY_DOC: OperationDoc = {
  operationId: 'sessionActivity',
  summary: 'Say the session’s person is at the desk (a key press, a click): only this and writes keep the session from locking, not reads',
  responses: { 204: { description: 'The session stays open' } },
  refusals: [401],
  public: true,
};
const LIST_USERS_DOC: OperationDoc = {
  operationId: 'listUsers',
  summary: 'The users of the caller’s company (administrators; apiKeys:manage)',
  responses: { 200: { description: 'By login', shape: shape('UserInfoList', z.array(userInfoSchema), [USER_INFO]) } },
};
const CREATE_USER_DOC: OperationDoc = {
  operationId: 'createUser',
  summary: 'A new user of the caller’s company; a caller grants no role beyond its own permissions',
  body: shape('CreateUserBody', createUserBodySchema),
  responses: { 201: { description: 'The user', shape: USER_INFO } },
};
const UPDATE_USER_DOC: OperationDoc = {
  operationId: 'updateUser',
  summary: 'Rename a user, change their role or e-mail address, disable or enable them (a disabled person’s sessions end at once)',
  params: userId,
  body: shape('UpdateUserBody', updateUserBodySchema),
  responses: { 200: { description: 'The user', shape: USER_INFO } },
  refusals: [404],
};
const UNLOCK_USER_DOC: OperationDoc = {
  operationId: 'unlockUser',
  summary: 'Unlock an account locked after failed sign-ins',
  params: userId,
  responses: { 200: { description: 'The user', shape: USER_INFO } },
  refusals: [404],
};
const RESET_PASSWORD_DOC: OperationDoc = {
  operationId: 'resetUserPassword',
  summary: 'Set a user’s password: their sessions end, and with the company’s changeAfterReset they choose their own at the next sign-in',
  params: userId,
  body: shape('PasswordBody', passwordBodySchema),
  responses: { 200: { description: 'The user', shape: USER_INFO } },
  refusals: [404],
};
const USER_EVENTS_DOC: OperationDoc = {
  operationId: 'listUserEvents',
  summary: 'What happened to an account, oldest first: created, role changed, password reset, locked, signed in, …',
  params: userId,
  responses: { 200: { description: 'The events', shape: shape('UserEventList', z.array(userEventSchema)) } },
  refusals: [404],
};
const GET_SETTINGS_DOC: OperationDoc = {
  operationId: 'getCompanySettings',
  summary: 'The company’s lock after inactivity, four-eyes release, password policy and session expiry',
  responses: { 200: { description: 'The settings', shape: SETTINGS } },
};
const PUT_SETTINGS_DOC: OperationDoc = {
  operationId: 'putCompanySettings',
  summary: 'Change the company’s lock after inactivity, four-eyes release, password policy or session expiry (administrators); absent fields keep their value',
  body: shape('CompanySettingsBody', settingsBodySchema),
  responses: { 200: { description: 'The settings', shape: SETTINGS } },
};

const MANAGE: RouteChecks = { permission: 'apiKeys:manage', query: [] };
const MANAGE_WITH_BODY: RouteChecks = { permission: 'apiKeys:manage', body: true, query: [] };
const READ_SETTINGS: RouteChecks = { permission: null, query: [] };

type WithId = { Params: { id: string } };

/** Signing in, unlocking and out: before any key. */
export function sessionRoutes(service: Pick<ServedService, 'users'>, options: { busyWaitMs: number }) {
  const { users } = service;
  const token = (request: FastifyRequest): string => {
    const keys = presentedKeys(request);
    if (keys.size !== 1) throw new ApiError(401, 'API_KEY_MISSING', 'send the session’s token in the x-api-key header');
    return [...keys][0];
  };
  return async function routes(app: FastifyInstance): Promise<void> {
    app.post('/local/session/sign-in', { config: { openapi: SIGN_IN_DOC } }, async (request) => {
      const body = parseObjectBody(signInBodySchema, request.body);
      return waitForDatabase(() => users.signIn(body.login, body.password), options.busyWaitMs);
    });
    app.post('/local/session/unlock', { config: { openapi: UNLOCK_DOC } }, async (request) => {
      const session = token(request);
      const body = parseObjectBody(unlockBodySchema, request.body);
      return waitForDatabase(() => users.unlockSession(session, body.password), options.busyWaitMs);
    });
    app.post('/local/session/password', { config: { openapi: CHANGE_PASSWORD_DOC } }, async (request) => {
      const session = token(request);
      const body = parseObjectBody(changePasswordBodySchema, request.body);
      return waitForDatabase(() => users.changePassword(session, body.currentPassword, body.newPassword), options.busyWaitMs);
    });
    app.post('/local/session/activity', { config: { openapi: ACTIVITY_DOC } }, async (request, reply) => {
      const session = token(request);
      await waitForDatabase(() => users.touchSession(session), options.busyWaitMs);
      return reply.code(204).send();
    });
    app.post('/local/session/sign-out', { config: { openapi: SIGN_OUT_DOC } }, async (request, reply) => {
      const session = token(request);
      if (!(await waitForDatabase(() => users.signOut(session), options.busyWaitMs))) {
        throw new ApiError(401, 'SESSION_ENDED', 'no such session: it has ended already');
      }
      return reply.code(204).send();
    });
  };
}

/** Users and company settings, behind the key. */
export function peopleRoutes(service: Pick<ServedService, 'users'>, options: { busyWaitMs: number }) {
  const { users } = service;
  const write = <T>(work: () => T) => waitForDatabase(work, options.busyWaitMs);
  return async function routes(app: FastifyInstance): Promise<void> {
    judgeBodiesLate(app);

    app.get('/local/users', { config: { openapi: LIST_USERS_DOC, checks: MANAGE } }, async (request) => users.list(callerOf(request)));

    app.post('/local/users', { config: { openapi: CREATE_USER_DOC, checks: MANAGE_WITH_BODY } }, async (request, reply) => {
      const caller = callerOf(request);
      const body = parseObjectBody(createUserBodySchema, request.body);
      return reply.code(201).send(await write(() => users.create(caller, caller.companyId, body)));
    });

    app.patch<WithId>('/local/users/:id', { config: { openapi: UPDATE_USER_DOC, checks: MANAGE_WITH_BODY } }, async (request) => {
      const caller = callerOf(request);
      const body = parseObjectBody(updateUserBodySchema, request.body);
      return write(() => {
        let user = users.update(caller, request.params.id, { name: body.name, role: body.role, email: body.email });
        if (body.disabled !== undefined) user = users.setDisabled(caller, request.params.id, body.disabled);
        return user;
      });
    });

    app.post<WithId>('/local/users/:id/unlock', { config: { openapi: UNLOCK_USER_DOC, checks: MANAGE } }, async (request) => {
      const caller = callerOf(request);
      return write(() => users.unlock(caller, request.params.id));
    });

    app.post<WithId>('/local/users/:id/password', { config: { openapi: RESET_PASSWORD_DOC, checks: MANAGE_WITH_BODY } }, async (request) => {
      const caller = callerOf(request);
      const body = parseObjectBody(passwordBodySchema, request.body);
      return write(() => users.resetPassword(caller, request.params.id, body.password));
    });

    app.get<WithId>('/local/users/:id/events', { config: { openapi: USER_EVENTS_DOC, checks: MANAGE } }, async (request) => {
      return users.events(callerOf(request), request.params.id);
    });

    app.get('/local/settings', { config: { openapi: GET_SETTINGS_DOC, checks: READ_SETTINGS } }, async (request) => users.settings(callerOf(request)));

    app.put('/local/settings', { config: { openapi: PUT_SETTINGS_DOC, checks: MANAGE_WITH_BODY } }, async (request) => {
      const caller = callerOf(request);
      const body = parseObjectBody(settingsBodySchema, request.body);
      return write(() => users.saveSettings(caller, caller.companyId, body));
    });
  };
}
