import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { UI_CONTENT_SECURITY_POLICY, UI_CONTENT_SECURITY_POLICY_META } from '../../contract/content-security-policy';
import { startService, type RunningService } from '../../host/start-service';
import { withContentSecurityPolicy } from '../../main/window-policy';
import { builtUi } from '../support/run-cache';

function directives(policy: string): string[] {
  return policy.split(';').map((d) => d.trim()).filter((d) => d !== '');
}

function metaPolicy(html: string): string | null {
  const content = html.match(/<meta http-equiv="Content-Security-Policy" content="([^"]*)"/)?.[1];
  return content === undefined ? null : content.replace(/&#39;/g, "'").replace(/&quot;/g, '"').replace(/&amp;/g, '&');
}

test('the header policy is the meta policy plus frame-ancestors, which a meta tag cannot carry', () => {
  expect(directives(UI_CONTENT_SECURITY_POLICY)).toEqual([...directives(UI_CONTENT_SECURITY_POLICY_META), "frame-ancestors 'none'"]);
});

test('the desktop window adds the contract policy to the service responses', () => {
  expect(withContentSecurityPolicy('http://127.0.0.1:4317/', {}, 'http://127.0.0.1:4317')).toEqual({
    'Content-Security-Policy': [UI_CONTENT_SECURITY_POLICY],
  });
});

describe('the page the service serves, built as npm run build:renderer builds it', () => {
  let running: RunningService;

  beforeAll(async () => {
    // The run's own build (test/support/run-cache.ts), so the check never reads a stale dist/ nor races another build of it.
    running = await startService({ dbFile: ':memory:', staticDir: await builtUi() });
  });

  afterAll(async () => {
    await running?.close();
  });

  test('carries the contract policy in its header and in its meta tag', async () => {
    const page = await fetch(`${running.url}/`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-security-policy')).toBe(UI_CONTENT_SECURITY_POLICY);
    expect(metaPolicy(await page.text())).toBe(UI_CONTENT_SECURITY_POLICY_META);
  });
});
