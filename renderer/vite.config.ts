/**
 * Build of the renderer: root renderer/, output dist/renderer with relative asset paths (the
 * service serves it at /, to browsers and to the desktop window alike). The built page carries
 * the UI's Content-Security-Policy as a meta tag too, so it holds wherever the page is served
 * from. The dev server gets no CSP meta because React's fast-refresh preamble is an inline
 * script; it proxies /v2 and /local to LABELDESK_URL.
 */
import react from '@vitejs/plugin-react';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';
import type { Plugin } from 'vite';
// With its real file name: Vite's native config loader runs this file through Node, which
// resolves neither an extensionless import nor `.js` standing for a `.ts` file.
import { UI_CONTENT_SECURITY_POLICY_META } from '../contract/content-security-policy.ts';

const root = fileURLToPath(new URL('.', import.meta.url));

function contentSecurityPolicy(): Plugin {
  return {
    name: 'labeldesk-csp',
    apply: 'build',
    transformIndexHtml: () => [
      { tag: 'meta', attrs: { 'http-equiv': 'Content-Security-Policy', content: UI_CONTENT_SECURITY_POLICY_META }, injectTo: 'head-prepend' },
    ],
  };
}

const target = process.env.LABELDESK_URL ?? 'http://127.0.0.1:4319';
const proxy = {
  target,
  changeOrigin: true,
  // The service refuses foreign Origins; through the proxy the request is the service's own.
  headers: { origin: target },
};

export default defineConfig({
  root,
  base: './',
  plugins: [react(), contentSecurityPolicy()],
  build: {
    outDir: '../dist/renderer',
    emptyOutDir: true,
    // The preload polyfill would be an inline script; every target browser supports modulepreload.
    modulePreload: { polyfill: false },
    chunkSizeWarningLimit: 1500,
    sourcemap: false,
  },
  server: { proxy: { '/v2': proxy, '/local': proxy } },
});
