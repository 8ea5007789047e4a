/**
 * The window's security decisions as pure functions: which navigations, windows, permissions
 * and headers are allowed. Nothing here touches Electron at runtime, so all of it is tested in
 * Node; main.ts only wires these answers into Electron's events.
 */
import type { WebPreferences } from 'electron';
import { UI_CONTENT_SECURITY_POLICY } from '../contract/content-security-policy';

/** The origin (scheme://host:port) of an http(s) URL, or null for anything else or garbage. */
export function httpOrigin(url: string | null | undefined): string | null {
  if (typeof url !== 'string' || url === '') return null;
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return null;
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') return null;
  return parsed.origin;
}

/** True when `url` is an http(s) URL of exactly the service's origin. */
export function isServiceUrl(url: string | null | undefined, serviceOrigin: string): boolean {
  const origin = httpOrigin(url);
  const service = httpOrigin(serviceOrigin);
  return origin !== null && service !== null && origin === service;
}

/** will-navigate / will-redirect: the window stays on the service; file:, javascript:, data: and other sites are refused. */
export function isNavigationAllowed(targetUrl: string, serviceOrigin: string): boolean {
  return isServiceUrl(targetUrl, serviceOrigin);
}

export interface WindowOpenDecision {
  action: 'deny';
  /** An http(s) link to hand to the user's browser (shell.openExternal), or null. */
  openExternal: string | null;
}

/** window.open and target=_blank never create an Electron window; web links go to the browser. */
export function decideWindowOpen(url: string): WindowOpenDecision {
  return { action: 'deny', openExternal: httpOrigin(url) !== null ? new URL(url).href : null };
}

/** The BrowserWindow's webPreferences: isolated, sandboxed, no Node, web security on. */
export function secureWebPreferences(preloadPath: string): WebPreferences {
  return {
    preload: preloadPath,
    contextIsolation: true,
    sandbox: true,
    nodeIntegration: false,
    nodeIntegrationInWorker: false,
    nodeIntegrationInSubFrames: false,
    webSecurity: true,
    allowRunningInsecureContent: false,
    webviewTag: false,
    spellcheck: false,
  };
}

/**
 * Permission requests and checks. Everything is refused except writing text to the clipboard
 * from the service's own page (the UI's "Copy" buttons for a new API key, which is shown once).
 */
export function isPermissionAllowed(permission: string, requestingUrl: string | null | undefined, serviceOrigin: string): boolean {
  return permission === 'clipboard-sanitized-write' && isServiceUrl(requestingUrl, serviceOrigin);
}

export type ResponseHeaders = Record<string, string | string[]>;

/**
 * onHeadersReceived: responses from the service carry the UI's CSP. Existing policies are kept
 * (several policies are all enforced, so adding one can only tighten); other origins pass
 * unchanged (undefined: leave the headers as they are).
 */
export function withContentSecurityPolicy(
  responseUrl: string,
  headers: ResponseHeaders | undefined,
  serviceOrigin: string,
  policy: string = UI_CONTENT_SECURITY_POLICY,
): Record<string, string[]> | undefined {
  if (!isServiceUrl(responseUrl, serviceOrigin)) return undefined;
  const merged: Record<string, string[]> = {};
  const policies: string[] = [];
  for (const [name, value] of Object.entries(headers ?? {})) {
    const values = Array.isArray(value) ? value : [value];
    if (name.toLowerCase() === 'content-security-policy') policies.push(...values);
    else merged[name] = [...values];
  }
  if (!policies.some((p) => p.trim() === policy)) policies.push(policy);
  merged['Content-Security-Policy'] = policies;
  return merged;
}
