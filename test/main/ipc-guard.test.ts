import { describe, expect, test } from 'vitest';
import { connectionFor, isTrustedSender } from '../../main/ipc-guard';
import { parseServiceArgs, serviceArgv, isServiceMessage, isShutdownMessage } from '../../host/service-protocol';

const SERVICE = 'http://127.0.0.1:4317';
const state = { baseUrl: SERVICE, sessionKey: 'ldk_session', message: null };

describe('IPC sender validation', () => {
  test('the service page in the top frame is trusted', () => {
    expect(isTrustedSender({ url: `${SERVICE}/`, parent: null }, SERVICE)).toBe(true);
    expect(isTrustedSender({ url: `${SERVICE}/reports?id=1#x` }, SERVICE)).toBe(true);
    expect(connectionFor({ url: `${SERVICE}/`, parent: null }, state)).toEqual({ baseUrl: SERVICE, apiKey: 'ldk_session' });
  });

  test('other origins, files, sub-frames and missing frames are rejected', () => {
    const untrusted = [
      null,
      undefined,
      { url: 'https://example.com/', parent: null },
      { url: 'http://127.0.0.1:4318/', parent: null },
      { url: 'http://localhost:4317/', parent: null },
      { url: 'file:///app/dist/renderer/index.html', parent: null },
      { url: 'about:blank', parent: null },
      { url: '', parent: null },
      { url: `${SERVICE}/`, parent: { url: `${SERVICE}/` } },
    ];
    for (const frame of untrusted) {
      expect(isTrustedSender(frame, SERVICE), JSON.stringify(frame)).toBe(false);
      expect(() => connectionFor(frame, state), JSON.stringify(frame)).toThrow(/refused/);
    }
  });

  test('a trusted sender without a session key gets the reason', () => {
    expect(() => connectionFor({ url: `${SERVICE}/` }, { baseUrl: SERVICE, sessionKey: null, message: 'no company yet' })).toThrow(
      'no company yet',
    );
  });
});

describe('service process protocol', () => {
  test('arguments round-trip and are found anywhere in argv', () => {
    const args = { dbFile: '/d/labeldesk.sqlite', port: 0, strictPort: true, staticDir: '/app/dist/renderer', companyId: 'acme', demoIfEmpty: true, version: '1.2.3' };
    expect(parseServiceArgs(['/electron', '/app/service-process.cjs', ...serviceArgv(args)])).toEqual(args);
    expect(parseServiceArgs(['--db=/x.sqlite'])).toEqual({ dbFile: '/x.sqlite', strictPort: false, demoIfEmpty: false });
    expect(() => parseServiceArgs(['node', 'x'])).toThrow(/--db/);
    expect(() => parseServiceArgs(['--db', 'x', '--port', '70000'])).toThrow(/--port/);
  });

  test('messages are recognised by shape', () => {
    expect(isServiceMessage({ type: 'ready', url: SERVICE, sessionKey: null, companyId: null, message: 'm' })).toBe(true);
    expect(isServiceMessage({ type: 'ready', url: SERVICE })).toBe(false);
    expect(isServiceMessage({ type: 'error', message: 'x' })).toBe(true);
    expect(isServiceMessage('ready')).toBe(false);
    expect(isShutdownMessage({ type: 'shutdown' })).toBe(true);
    expect(isShutdownMessage({ type: 'other' })).toBe(false);
  });
});
