/**
 * The people endpoints: signing in, changing the password, unlocking and out (before any key, so with a plain fetch
 * through a client whose key is the session's token or none), the company's users and settings.
 */
import { z } from 'zod';
import {
  companySettingsSchema,
  signedInSchema,
  userInfoSchema,
  type ChangePasswordBody,
  type CompanySettingsAnswer,
  type CreateUserBody,
  type SignedInAnswer,
  type UpdateUserBody,
  type UserInfoAnswer,
} from '../../schema/people';
import { createApiClient, parse, type ApiClient } from './client';

export type { SignedInAnswer, UserInfoAnswer, CompanySettingsAnswer };

const userList = z.array(userInfoSchema);

export interface PeopleClient {
  listUsers(signal?: AbortSignal): Promise<UserInfoAnswer[]>;
  createUser(body: CreateUserBody): Promise<UserInfoAnswer>;
  updateUser(id: string, body: UpdateUserBody): Promise<UserInfoAnswer>;
  unlockUser(id: string): Promise<UserInfoAnswer>;
  resetPassword(id: string, password: string): Promise<UserInfoAnswer>;
  settings(signal?: AbortSignal): Promise<CompanySettingsAnswer>;
  saveSettings(body: Partial<CompanySettingsAnswer>): Promise<CompanySettingsAnswer>;
}

export function peopleClient(client: ApiClient): PeopleClient {
  const user = (answer: unknown) => parse(userInfoSchema, answer, 'a user');
  const path = (id: string, part = '') => `/local/users/${encodeURIComponent(id)}${part}`;
  return {
    async listUsers(signal) {
      return parse(userList, await client.request('GET', '/local/users', { signal }), 'the users');
    },
    async createUser(body) {
      return user(await client.request('POST', '/local/users', { body }));
    },
    async updateUser(id, body) {
      return user(await client.request('PATCH', path(id), { body }));
    },
    async unlockUser(id) {
      return user(await client.request('POST', path(id, '/unlock')));
    },
    async resetPassword(id, password) {
      return user(await client.request('POST', path(id, '/password'), { body: { password } }));
    },
    async settings(signal) {
      return parse(companySettingsSchema, await client.request('GET', '/local/settings', { signal }), 'the settings');
    },
    async saveSettings(body) {
      return parse(companySettingsSchema, await client.request('PUT', '/local/settings', { body }), 'the settings');
    },
  };
}

/** Requests that carry no key, or the session's token, outside the app's own client. */
function sessionClient(baseUrl: string, token: string, fetchImpl?: typeof fetch): ApiClient {
  return createApiClient({ baseUrl, apiKey: token, fetch: fetchImpl });
}

export async function signIn(baseUrl: string, login: string, password: string, fetchImpl?: typeof fetch): Promise<SignedInAnswer> {
  const answer = await sessionClient(baseUrl, '', fetchImpl).request('POST', '/local/session/sign-in', { body: { login, password } });
  return parse(signedInSchema, answer, 'a session');
}

export async function unlockSession(baseUrl: string, token: string, password: string, fetchImpl?: typeof fetch): Promise<SignedInAnswer> {
  const answer = await sessionClient(baseUrl, token, fetchImpl).request('POST', '/local/session/unlock', { body: { password } });
  return parse(signedInSchema, answer, 'a session');
}

/** The session's person chooses a new password; the same session goes on, its change no longer due. */
export async function changeSessionPassword(baseUrl: string, token: string, body: ChangePasswordBody, fetchImpl?: typeof fetch): Promise<SignedInAnswer> {
  const answer = await sessionClient(baseUrl, token, fetchImpl).request('POST', '/local/session/password', { body });
  return parse(signedInSchema, answer, 'a session');
}

export async function signOutSession(baseUrl: string, token: string, fetchImpl?: typeof fetch): Promise<void> {
  await sessionClient(baseUrl, token, fetchImpl).request('POST', '/local/session/sign-out');
}

type SessionState = 'ok' | 'locked' | 'ended';

async function sessionAnswer(ask: Promise<unknown>): Promise<SessionState> {
  try {
    await ask;
    return 'ok';
  } catch (err) {
    return (err as { code?: string }).code === 'SESSION_LOCKED' ? 'locked' : 'ended';
  }
}

/** What the service says of the token now: fine, locked, or gone. */
export function sessionState(baseUrl: string, token: string, fetchImpl?: typeof fetch): Promise<SessionState> {
  return sessionAnswer(sessionClient(baseUrl, token, fetchImpl).request('GET', '/local/session'));
}

/** Says the session's person is at the desk; answers what the service says of the session then. */
export function sendSessionActivity(baseUrl: string, token: string, fetchImpl?: typeof fetch): Promise<SessionState> {
  return sessionAnswer(sessionClient(baseUrl, token, fetchImpl).request('POST', '/local/session/activity'));
}
