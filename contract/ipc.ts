/**
 * The IPC exchanges between the page, the preload script and the main process. The page can
 * ask for its connection, keep the remote sync key and save a report as PDF, and nothing else,
 * so the bridge stays this narrow.
 */
export const GET_CONNECTION_CHANNEL = 'labeldesk:get-connection';
export const SAVE_REMOTE_KEY_CHANNEL = 'labeldesk:save-remote-key';
export const HAS_REMOTE_KEY_CHANNEL = 'labeldesk:has-remote-key';
export const SAVE_PDF_CHANNEL = 'labeldesk:save-pdf';

/** Where the local service listens and the session key the page uses with it. */
export interface Connection {
  baseUrl: string;
  apiKey: string;
}

/**
 * What became of a remote key handed to the desktop app. The service always gets it; `saved`
 * says whether it was also kept, encrypted, for the next start (`reason` says why not).
 */
export type RemoteKeySaved = { saved: true } | { saved: false; reason: string };

/** What became of a "Save PDF": the file written, or why not (null: the person cancelled). */
export type PdfSaved = { saved: true; path: string } | { saved: false; reason: string | null };

/** `window.labeldesk` in the desktop app; absent in a plain browser. */
export interface LabelDeskBridge {
  getConnection(): Promise<Connection>;
  /**
   * Hands the remote instance's API key to the local service and keeps it encrypted with the
   * operating system's key store (Electron safeStorage), never in plain text. `null` forgets it.
   */
  saveRemoteKey(key: string | null): Promise<RemoteKeySaved>;
  /** Whether a remote key is kept for the next start. */
  hasRemoteKey(): Promise<boolean>;
  /** Renders the report's print view to an A4 PDF and asks where to save it. */
  savePdf(reportId: string): Promise<PdfSaved>;
}
