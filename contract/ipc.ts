/**
 * The one IPC exchange between the page, the preload script and the main process. The page can
 * ask for its connection and nothing else, so the bridge stays this narrow.
 */
export const GET_CONNECTION_CHANNEL = 'labeldesk:get-connection';

/** Where the local service listens and the session key the page uses with it. */
export interface Connection {
  baseUrl: string;
  apiKey: string;
}

/** `window.labeldesk` in the desktop app; absent in a plain browser. */
export interface LabelDeskBridge {
  getConnection(): Promise<Connection>;
}
