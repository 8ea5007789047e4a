/**
 * GET /docs: the OpenAPI document (GET /openapi.json) rendered as a reference a person reads in
 * a browser, by Redoc's standalone bundle. The bundle comes from the redoc package on this
 * machine, so the page works without a network; like the document, it needs no API key.
 */
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import type { FastifyInstance } from 'fastify';

export const DOCS_PATH = '/docs';
const BUNDLE_PATH = `${DOCS_PATH}/redoc.standalone.js`;
const START_PATH = `${DOCS_PATH}/start.js`;

/**
 * The UI's policy (contract/content-security-policy.ts) with the two things Redoc needs beyond it:
 * its styles are written into <style> elements at run time (styled-components; under the UI's
 * policy it renders nothing), and its search index is built in a worker made from a blob. The
 * Redocly logo its menu shows from their CDN stays blocked: the page reaches nothing outside.
 */
export const DOCS_CONTENT_SECURITY_POLICY = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "font-src 'self'",
  "connect-src 'self'",
  'worker-src blob:',
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

const PAGE = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>LabelDesk API reference</title>
<link rel="icon" href="data:,">
</head>
<body>
<div id="reference"></div>
<script src="${BUNDLE_PATH}"></script>
<script src="${START_PATH}"></script>
</body>
</html>
`;

// A file of its own, since the policy runs no inline script.
const START = `Redoc.init('/openapi.json', { expandResponses: '200,201', jsonSampleExpandLevel: 3 }, document.getElementById('reference'));\n`;

export function registerDocs(app: FastifyInstance): void {
  let bundle: Promise<Buffer> | undefined;
  const readBundle = () => {
    // Resolved where the code runs, so the packaged app finds the redoc it ships with.
    bundle ??= readFile(createRequire(import.meta.url).resolve('redoc/bundles/redoc.standalone.js')).catch((err: unknown) => {
      bundle = undefined;
      throw err;
    });
    return bundle;
  };

  app.get(DOCS_PATH, async (_request, reply) =>
    reply.type('text/html; charset=utf-8').header('Content-Security-Policy', DOCS_CONTENT_SECURITY_POLICY).send(PAGE),
  );
  app.get(START_PATH, async (_request, reply) => reply.type('text/javascript; charset=utf-8').send(START));
  app.get(BUNDLE_PATH, async (_request, reply) => reply.type('text/javascript; charset=utf-8').send(await readBundle()));
}
