/**
 * Which service and key the renderer talks with, and as which company. The key comes from, in
 * order: the Electron bridge, a `#key=` link (removed from the address bar at once so it does not
 * linger in history or screenshots, and kept in sessionStorage for reloads), sessionStorage, or
 * the Connect screen. Staff of different companies share a desk, so the key can be switched.
 */
import { createStore } from 'zustand/vanilla';
import type { Connection, LabelDeskBridge } from '../../contract/ipc';
import { ApiClientError, createApiClient, errorMessage, NETWORK_ERROR } from '../api/client';
import { plainProblem, SIGNED_OUT } from '../lib/problem-text';
import type { ApiClient, Session } from '../api/client';
import { changeSessionPassword, sendSessionActivity, sessionState, signIn, signOutSession, unlockSession } from '../api/people-client';

export const STORAGE_KEY = 'labeldesk.apiKey';
/** The signed-in person's session token, for reloads of this window only. */
export const PERSON_STORAGE_KEY = 'labeldesk.personSession';

/** The browser facilities connection resolution needs; injected so tests run in Node. */
export interface ConnectionEnv {
  bridge?: Pick<LabelDeskBridge, 'getConnection'>;
  /** location.href */
  href: string;
  /** location.origin */
  origin: string;
  storage: Pick<Storage, 'getItem' | 'setItem' | 'removeItem'>;
  /** history.replaceState without adding an entry. */
  replaceUrl(url: string): void;
  fetch?: typeof fetch;
}

export function browserEnv(): ConnectionEnv {
  return {
    bridge: window.labeldesk,
    href: window.location.href,
    origin: window.location.origin,
    storage: window.sessionStorage,
    replaceUrl: (url) => window.history.replaceState(window.history.state, '', url),
  };
}

export type ConnectionSource = 'bridge' | 'link' | 'storage' | 'entered';

export interface ConnectionState {
  phase: 'idle' | 'resolving' | 'connect' | 'ready';
  baseUrl: string;
  source: ConnectionSource | null;
  client: ApiClient | null;
  session: Session | null;
  /** Why the Connect screen is shown (refused key, unreachable service), or null. */
  error: string | null;
  /** True while the error is "service unreachable": the Connect screen offers a retry. */
  unreachable: boolean;
  /** A key is being checked against the service. */
  connecting: boolean;
  /** False from the moment a request finds no service until one is answered again. */
  reachable: boolean;
  /** Why the person was signed out (their key revoked), said on the Connect screen; not an error to retry. */
  notice: string | null;
  resolve(env: ConnectionEnv): Promise<void>;
  connectWithKey(apiKey: string, env: ConnectionEnv): Promise<boolean>;
  useAnotherKey(env: ConnectionEnv): void;
  /** The key is no longer accepted: forget it and ask for another, saying why. */
  signOut(reason: string): void;
  /** The key the app came with, kept while a person acts: signing out returns to it. */
  toolKey: string | null;
  /** The person's session is locked (idle too long): the page stays, only the password is asked. */
  locked: boolean;
  /** Minutes of inactivity before the lock, as the company set it. */
  lockAfterMinutes: number;
  /** Signs a person in; the app then acts as them. Answers the refusal's words, or null. */
  signInPerson(login: string, password: string): Promise<string | null>;
  signOutPerson(): Promise<void>;
  lock(): void;
  /**
   * The person is using the page (a key, a click, a scroll): tells the service, at most twice
   * per lock time, as its lock counts only what the person does, not the page's own reads.
   */
  personActive(now: number): void;
  /** Answers the refusal's words, or null when unlocked. */
  unlock(password: string): Promise<string | null>;
  /**
   * The signed-in person chooses a new password (a change that was due, or not); the session goes
   * on, its change no longer due. Answers the refusal's words, or null when changed.
   */
  changePassword(currentPassword: string, newPassword: string): Promise<string | null>;
}

/** Reads `key` from a `#key=...` fragment; returns the key and the address without it. */
export function takeKeyFromFragment(href: string): { key: string; cleanUrl: string } | null {
  const url = new URL(href);
  const hash = url.hash.startsWith('#') ? url.hash.slice(1) : url.hash;
  if (!hash) return null;
  const params = new URLSearchParams(hash);
  const key = params.get('key');
  if (!key) return null;
  params.delete('key');
  const rest = params.toString();
  url.hash = rest ? `#${rest}` : '';
  // URL keeps a bare '#' when the hash is emptied; strip it for a clean address bar.
  return { key, cleanUrl: url.toString().replace(/#$/, '') };
}

export function createConnectionStore() {
  return createStore<ConnectionState>()((set, get) => {
    let lastEnv: ConnectionEnv | null = null;
    let lastActivitySent = -Infinity;

    /** Checks a key against /local/session; on success the renderer is ready as that company. */
    async function attach(baseUrl: string, apiKey: string, source: ConnectionSource, env: ConnectionEnv): Promise<boolean> {
      lastEnv = env;
      const client: ApiClient = createApiClient({
        baseUrl,
        apiKey,
        fetch: env.fetch,
        onAnswer(status) {
          if (get().client !== client) return;
          if ((status === 0) === get().reachable) set({ reachable: status !== 0 });
          // A password that expires while the person works: the next refusal (403
          // PASSWORD_CHANGE_REQUIRED) leads to the change screen, as /local/session now says.
          if (status === 403 && get().session?.person && !get().session?.passwordChangeDue) {
            void client.session().then(
              (session) => {
                if (get().client === client && session.passwordChangeDue) set({ session });
              },
              () => undefined,
            );
            return;
          }
          if (status !== 401) return;
          if (!get().session?.person) {
            get().signOut(SIGNED_OUT);
            return;
          }
          // A person's 401 is either the lock after inactivity, which keeps the page, or the end.
          void sessionState(baseUrl, apiKey, env.fetch).then((state) => {
            if (get().client !== client) return;
            if (state === 'locked') set({ locked: true });
            else if (state === 'ended') void get().signOutPerson();
          });
        },
      });
      // A key typed on the Connect screen keeps that screen (and its input) up while it is checked.
      set({ phase: get().phase === 'connect' ? 'connect' : 'resolving', connecting: true, baseUrl, error: null, unreachable: false, notice: null });
      try {
        const session = await client.session();
        if (session.person) {
          env.storage.setItem(PERSON_STORAGE_KEY, apiKey);
          set({ phase: 'ready', connecting: false, client, session, error: null, unreachable: false, reachable: true, locked: false });
          return true;
        }
        if (source !== 'bridge') env.storage.setItem(STORAGE_KEY, apiKey);
        // A reload of a window where a person had signed in: their session, when it still stands.
        const personToken = session.hasPeople ? env.storage.getItem(PERSON_STORAGE_KEY) : null;
        set({ toolKey: apiKey, source });
        if (personToken && (await sessionState(baseUrl, personToken, env.fetch)) === 'ok') {
          return attach(baseUrl, personToken, source, env);
        }
        set({ phase: 'ready', connecting: false, client, session, source, error: null, unreachable: false, reachable: true });
        return true;
      } catch (err) {
        const unreachable = err instanceof ApiClientError && err.code === NETWORK_ERROR;
        // A refused key is forgotten so a reload does not try it again; an unreachable service
        // says nothing about the key, which is kept for the retry.
        if (!unreachable) env.storage.removeItem(STORAGE_KEY);
        const message =
          err instanceof ApiClientError && (err.status === 401 || err.status === 403)
            ? 'That key was not accepted: it is unknown or was revoked. Check it, or ask for a new one.'
            : plainProblem(err);
        set({ phase: 'connect', connecting: false, client: null, session: null, source: null, error: message, unreachable });
        return false;
      }
    }

    return {
      phase: 'idle',
      baseUrl: '',
      source: null,
      client: null,
      session: null,
      error: null,
      unreachable: false,
      connecting: false,
      reachable: true,
      notice: null,
      toolKey: null,
      locked: false,
      lockAfterMinutes: 15,

      async signInPerson(login, password) {
        const env = lastEnv;
        if (!env) return 'Not connected to the service.';
        try {
          const signed = await signIn(get().baseUrl, login, password, env.fetch);
          set({ lockAfterMinutes: signed.lockAfterMinutes });
          await attach(get().baseUrl, signed.token, get().source ?? 'entered', env);
          return null;
        } catch (err) {
          return plainProblem(err);
        }
      },

      async signOutPerson() {
        const env = lastEnv;
        const token = env?.storage.getItem(PERSON_STORAGE_KEY);
        env?.storage.removeItem(PERSON_STORAGE_KEY);
        if (token) await signOutSession(get().baseUrl, token, env?.fetch).catch(() => undefined);
        const toolKey = get().toolKey;
        set({ locked: false });
        if (env && toolKey) await attach(get().baseUrl, toolKey, get().source ?? 'entered', env);
        else get().signOut(SIGNED_OUT);
      },

      personActive(now) {
        const env = lastEnv;
        const token = env?.storage.getItem(PERSON_STORAGE_KEY);
        if (!env || !token || get().locked || !get().session?.person) return;
        const every = Math.min(60_000, (get().lockAfterMinutes * 60_000) / 2);
        if (now - lastActivitySent < every) return;
        lastActivitySent = now;
        void sendSessionActivity(get().baseUrl, token, env.fetch).then((state) => {
          if (state === 'locked') set({ locked: true });
        });
      },

      lock() {
        if (get().session?.person) set({ locked: true });
      },

      async unlock(password) {
        const env = lastEnv;
        const token = env?.storage.getItem(PERSON_STORAGE_KEY);
        if (!env || !token) return 'The session has ended: sign in again.';
        try {
          const signed = await unlockSession(get().baseUrl, token, password, env.fetch);
          set({ locked: false, lockAfterMinutes: signed.lockAfterMinutes });
          return null;
        } catch (err) {
          return plainProblem(err);
        }
      },

      async changePassword(currentPassword, newPassword) {
        const env = lastEnv;
        const token = env?.storage.getItem(PERSON_STORAGE_KEY);
        const client = get().client;
        if (!env || !token || !client) return 'The session has ended: sign in again.';
        try {
          const signed = await changeSessionPassword(get().baseUrl, token, { currentPassword, newPassword }, env.fetch);
          set({ lockAfterMinutes: signed.lockAfterMinutes });
          // Attached again as at sign-in: a new client, so the list and the rest that were
          // refused while the change was due are asked for anew.
          if (get().client === client) await attach(get().baseUrl, token, get().source ?? 'entered', env);
          return null;
        } catch (err) {
          // The service's words say "the password": on this screen there are three.
          if (err instanceof ApiClientError && err.code === 'PASSWORD_WRONG') return 'The current password is wrong: enter the one you signed in with.';
          return plainProblem(err);
        }
      },

      async resolve(env) {
        set({ phase: 'resolving', error: null });
        // The key leaves the address bar before anything else happens, whichever source wins.
        const fromLink = takeKeyFromFragment(env.href);
        if (fromLink) env.replaceUrl(fromLink.cleanUrl);
        if (env.bridge) {
          let conn: Connection | null = null;
          try {
            conn = await env.bridge.getConnection();
          } catch (err) {
            set({ error: `The desktop app could not provide a connection: ${errorMessage(err)}` });
          }
          if (conn) {
            await attach(conn.baseUrl, conn.apiKey, 'bridge', env);
            return;
          }
        }
        if (fromLink) {
          await attach(env.origin, fromLink.key, 'link', env);
          return;
        }
        const stored = env.storage.getItem(STORAGE_KEY);
        if (stored) {
          await attach(env.origin, stored, 'storage', env);
          return;
        }
        set({ phase: 'connect', baseUrl: env.origin });
      },

      async connectWithKey(apiKey, env) {
        const key = apiKey.trim();
        if (!key) {
          set({ error: 'Paste an API key first.' });
          return false;
        }
        return attach(get().baseUrl || env.origin, key, 'entered', env);
      },

      useAnotherKey(env) {
        env.storage.removeItem(STORAGE_KEY);
        set({ phase: 'connect', client: null, session: null, source: null, error: null, unreachable: false, notice: null, reachable: true });
      },

      signOut(reason) {
        if (get().phase !== 'ready') return;
        lastEnv?.storage.removeItem(STORAGE_KEY);
        set({ phase: 'connect', client: null, session: null, source: null, error: null, unreachable: false, notice: reason, reachable: true });
      },
    };
  });
}

export type ConnectionStore = ReturnType<typeof createConnectionStore>;
