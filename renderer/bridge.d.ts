/**
 * The Electron preload bridge. In the desktop app the preload script exposes it as
 * `window.labeldesk`; in a plain browser it is absent and the renderer falls back to a
 * `#key=` link, sessionStorage or the Connect screen.
 */
import type { LabelDeskBridge } from '../contract/ipc';

declare global {
  interface Window {
    labeldesk?: LabelDeskBridge;
  }
}
