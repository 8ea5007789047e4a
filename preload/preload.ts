/**
 * The preload script of the sandboxed window: exposes exactly the bridge of contract/ipc.ts as
 * window.labeldesk. No ipcRenderer, no generic invoke: the page can ask for its connection and
 * hand over the remote sync key and the SMTP relay's password and save a report as PDF, and
 * nothing else. Bundled into one CommonJS file (sandboxed preloads cannot load modules).
 */
import { contextBridge, ipcRenderer } from 'electron';
import {
  GET_CONNECTION_CHANNEL,
  HAS_REMOTE_KEY_CHANNEL,
  SAVE_PDF_CHANNEL,
  SAVE_REMOTE_KEY_CHANNEL,
  HAS_SMTP_PASSWORD_CHANNEL,
  SAVE_SMTP_PASSWORD_CHANNEL,
  type Connection,
  type PdfSaved,
  type LabelDeskBridge,
  type RemoteKeySaved,
  type SmtpPasswordSaved,
} from '../contract/ipc';

contextBridge.exposeInMainWorld('labeldesk', {
  getConnection: (): Promise<Connection> => ipcRenderer.invoke(GET_CONNECTION_CHANNEL),
  saveRemoteKey: (key: string | null): Promise<RemoteKeySaved> => ipcRenderer.invoke(SAVE_REMOTE_KEY_CHANNEL, key),
  hasRemoteKey: (): Promise<boolean> => ipcRenderer.invoke(HAS_REMOTE_KEY_CHANNEL),
  savePdf: (reportId: string): Promise<PdfSaved> => ipcRenderer.invoke(SAVE_PDF_CHANNEL, reportId),
  saveSmtpPassword: (password: string | null): Promise<SmtpPasswordSaved> => ipcRenderer.invoke(SAVE_SMTP_PASSWORD_CHANNEL, password),
  hasSmtpPassword: (): Promise<boolean> => ipcRenderer.invoke(HAS_SMTP_PASSWORD_CHANNEL),
} satisfies LabelDeskBridge);
