/**
 * The preload script of the sandboxed window: exposes exactly one function, getConnection,
 * as window.labeldesk. No ipcRenderer, no generic invoke: the page can ask for its connection
 * and nothing else. Bundled into one CommonJS file (sandboxed preloads cannot load modules).
 */
import { contextBridge, ipcRenderer } from 'electron';
import { GET_CONNECTION_CHANNEL } from '../contract/ipc';

contextBridge.exposeInMainWorld('labeldesk', {
  getConnection: (): Promise<{ baseUrl: string; apiKey: string }> => ipcRenderer.invoke(GET_CONNECTION_CHANNEL),
});
