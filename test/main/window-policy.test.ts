import { describe, expect, test } from 'vitest';
import { UI_CONTENT_SECURITY_POLICY } from '../../contract/content-security-policy';
import {
  decideWindowOpen,
  httpOrigin,
  isNavigationAllowed,
  isPermissionAllowed,
  secureWebPreferences,
  withContentSecurityPolicy,
} from '../../main/window-policy';

const SERVICE = 'http://127.0.0.1:4317';

describe('navigation', () => {
  test('the service origin is allowed, with any path, query or fragment', () => {
    expect(isNavigationAllowed('http://127.0.0.1:4317/', SERVICE)).toBe(true);
    expect(isNavigationAllowed('http://127.0.0.1:4317/reports/r1?x=1#key=k', SERVICE)).toBe(true);
    expect(isNavigationAllowed('http://127.0.0.1:4317', SERVICE)).toBe(true);
  });

  test('other origins are refused: other port, other host spelling, https, other sites', () => {
    for (const url of [
      'http://127.0.0.1:4318/',
      'http://localhost:4317/',
      'https://127.0.0.1:4317/',
      'http://[::1]:4317/',
      'https://example.com/',
      'http://127.0.0.1:4317.evil.example/',
      'http://127.0.0.1@evil.example:4317/',
    ]) {
      expect(isNavigationAllowed(url, SERVICE), url).toBe(false);
    }
  });

  test('file:, javascript:, data:, about: and garbage are refused', () => {
    for (const url of [
      'file:///etc/passwd',
      'javascript:alert(1)',
      'data:text/html,<script>alert(1)</script>',
      'about:blank',
      'chrome://gpu',
      'devtools://devtools/bundled/inspector.html',
      '',
      'not a url',
      '//127.0.0.1:4317/',
    ]) {
      expect(isNavigationAllowed(url, SERVICE), url).toBe(false);
    }
  });

  test('a broken service origin allows nothing', () => {
    expect(isNavigationAllowed('http://127.0.0.1:4317/', 'file:///x')).toBe(false);
    expect(httpOrigin('http://127.0.0.1:4317/a')).toBe(SERVICE);
    expect(httpOrigin('file:///a')).toBeNull();
  });
});

describe('window.open', () => {
  test('never creates a window; web links go to the browser', () => {
    expect(decideWindowOpen('https://example.com/help')).toEqual({ action: 'deny', openExternal: 'https://example.com/help' });
    expect(decideWindowOpen('http://127.0.0.1:4317/x')).toEqual({ action: 'deny', openExternal: 'http://127.0.0.1:4317/x' });
  });

  test('non-web schemes are denied and not opened anywhere', () => {
    for (const url of ['file:///C:/Windows/system32/calc.exe', 'javascript:alert(1)', 'smb://host/share', 'ms-msdt:/id', 'about:blank', '']) {
      expect(decideWindowOpen(url), url).toEqual({ action: 'deny', openExternal: null });
    }
  });
});

describe('webPreferences', () => {
  test('isolated, sandboxed, no Node, web security on, the given preload', () => {
    const prefs = secureWebPreferences('/app/dist/preload/preload.cjs');
    expect(prefs).toMatchObject({
      preload: '/app/dist/preload/preload.cjs',
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      nodeIntegrationInSubFrames: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      webviewTag: false,
    });
  });
});

describe('permissions', () => {
  test('denied, except clipboard writes from the service page', () => {
    for (const p of ['media', 'geolocation', 'notifications', 'openExternal', 'fullscreen', 'clipboard-read', 'hid', 'serial', 'usb']) {
      expect(isPermissionAllowed(p, `${SERVICE}/`, SERVICE), p).toBe(false);
    }
    expect(isPermissionAllowed('clipboard-sanitized-write', `${SERVICE}/settings`, SERVICE)).toBe(true);
    expect(isPermissionAllowed('clipboard-sanitized-write', SERVICE, SERVICE)).toBe(true);
    expect(isPermissionAllowed('clipboard-sanitized-write', 'https://example.com/', SERVICE)).toBe(false);
    expect(isPermissionAllowed('clipboard-sanitized-write', undefined, SERVICE)).toBe(false);
  });
});

describe('Content-Security-Policy', () => {
  test('service responses get the policy; existing policies are kept, other headers untouched', () => {
    const headers = withContentSecurityPolicy(`${SERVICE}/`, { 'Content-Type': ['text/html'], 'content-security-policy': ["img-src 'none'"] }, SERVICE);
    expect(headers).toEqual({
      'Content-Type': ['text/html'],
      'Content-Security-Policy': ["img-src 'none'", UI_CONTENT_SECURITY_POLICY],
    });
  });

  test('no duplicate when the server already sent the same policy', () => {
    const headers = withContentSecurityPolicy(`${SERVICE}/index.html`, { 'Content-Security-Policy': [UI_CONTENT_SECURITY_POLICY] }, SERVICE);
    expect(headers?.['Content-Security-Policy']).toEqual([UI_CONTENT_SECURITY_POLICY]);
    expect(withContentSecurityPolicy(`${SERVICE}/v2/labelReports`, undefined, SERVICE)).toEqual({
      'Content-Security-Policy': [UI_CONTENT_SECURITY_POLICY],
    });
  });

  test('responses from elsewhere are left alone', () => {
    expect(withContentSecurityPolicy('https://example.com/', { a: ['b'] }, SERVICE)).toBeUndefined();
    expect(withContentSecurityPolicy('devtools://devtools/x', {}, SERVICE)).toBeUndefined();
  });
});
