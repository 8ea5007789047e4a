/**
 * The IPC exchanges between the page, the preload script and the main process. The page can
 * ask for its connection, keep the remote sync key and the SMTP relay's password, and save a
 * report as PDF, and nothing else,
 * so the bridge stays this narrow.
 */
export const GET_CONNECTION_CHANNEL = 'labeldesk:get-connection';
export const SAVE_REMOTE_KEY_CHANNEL = 'labeldesk:save-remote-key';
export const HAS_REMOTE_KEY_CHANNEL = 'labeldesk:has-remote-key';
export const SAVE_PDF_CHANNEL = 'labeldesk:save-pdf';
export const SAVE_SMTP_PASSWORD_CHANNEL = 'labeldesk:save-smtp-password';
export const HAS_SMTP_PASSWORD_CHANNEL = 'labeldesk:has-smtp-password';

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

/** What became of the SMTP relay's password handed to the desktop app: as for the remote key. */
export type SmtpPasswordSaved = RemoteKeySaved;

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
  /** Hands the SMTP relay's password to the local service and keeps it as the remote key is kept. `null` forgets it. */
  saveSmtpPassword(password: string | null): Promise<SmtpPasswordSaved>;
  /** Whether the relay's password is kept for the next start. */
  hasSmtpPassword(): Promise<boolean>;
}
