/**
 * Build of the renderer: root renderer/, output dist/renderer with relative asset paths (the
 * Electron app loads it from disk, the service serves it at /). The built page carries a strict
 * Content-Security-Policy: no inline script, no eval, styles only from files (React's style prop
 * goes through the CSSOM, which CSP allows). The dev server gets no CSP meta because React's
 * fast-refresh preamble is an inline script; it proxies /v2 and /local to LABELDESK_URL.
 */
import react from '@vitejs/plugin-react';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';
import type { Plugin } from 'vite';

const root = fileURLToPath(new URL('.', import.meta.url));

export const CONTENT_SECURITY_POLICY = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "font-src 'self'",
  // 'self' when served by the service; loopback for the desktop app, whose page is a file.
  "connect-src 'self' http://127.0.0.1:* http://localhost:*",
  "base-uri 'none'",
  "form-action 'none'",
  "object-src 'none'",
].join('; ');

function contentSecurityPolicy(): Plugin {
  return {
    name: 'labeldesk-csp',
    apply: 'build',
    transformIndexHtml: () => [
      { tag: 'meta', attrs: { 'http-equiv': 'Content-Security-Policy', content: CONTENT_SECURITY_POLICY }, injectTo: 'head-prepend' },
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
