/**
 * The preload script of the sandboxed window: exposes exactly one function, getConnection,
 * as window.labeldesk. No ipcRenderer, no generic invoke: the page can ask for its connection
 * and nothing else. Bundled into one CommonJS file (sandboxed preloads cannot load modules).
 */
import { contextBridge, ipcRenderer } from 'electron';
import { GET_CONNECTION_CHANNEL, type Connection, type LabelDeskBridge } from '../contract/ipc';

contextBridge.exposeInMainWorld('labeldesk', {
  getConnection: (): Promise<Connection> => ipcRenderer.invoke(GET_CONNECTION_CHANNEL),
} satisfies LabelDeskBridge);
