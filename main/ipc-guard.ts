/**
 * Who may use the main process's IPC (the connection with its session key, the remote sync
 * key): only the service's own page, in the window's top frame. The check follows VS Code's IPC sender
 * validation: judge the sender frame's URL, never anything the message itself claims.
 */
import { GET_CONNECTION_CHANNEL, type Connection } from '../contract/ipc';
import { isServiceUrl } from './window-policy';

/** The part of Electron's WebFrameMain the check needs. */
export interface SenderFrameLike {
  readonly url: string;
  readonly parent?: unknown;
}

export function isTrustedSender(frame: SenderFrameLike | null | undefined, serviceOrigin: string): boolean {
  if (!frame) return false;
  // A sub-frame is never trusted, even one of the same origin.
  if (frame.parent !== undefined && frame.parent !== null) return false;
  return isServiceUrl(frame.url, serviceOrigin);
}

/** Throws, naming the channel and the sender, unless the sender is the service's page. */
export function requireTrustedSender(frame: SenderFrameLike | null | undefined, serviceOrigin: string, channel: string): void {
  if (!isTrustedSender(frame, serviceOrigin)) {
    throw new Error(`${channel} refused: the sender ${frame ? `'${frame.url}'` : '(gone)'} is not the LabelDesk page`);
  }
}

export interface ConnectionState {
  baseUrl: string;
  /** The session key, or null when the service started without a company. */
  sessionKey: string | null;
  /** Why there is no session key. */
  message?: string | null;
}

/** The answer to GET_CONNECTION_CHANNEL, or an error for an untrusted sender or a missing key. */
export function connectionFor(frame: SenderFrameLike | null | undefined, state: ConnectionState): Connection {
  requireTrustedSender(frame, state.baseUrl, GET_CONNECTION_CHANNEL);
  if (state.sessionKey === null) {
    throw new Error(state.message ?? 'the local service has no company, so there is no session key');
  }
  return { baseUrl: state.baseUrl, apiKey: state.sessionKey };
}
