/**
 * The document the real service serves passes the checks of tools nobody here wrote, as a local
 * tool's developer runs them: Redocly's lint with its recommended rules, and Spectral with its
 * OpenAPI ruleset (spectral:oas). No error, no warning. Each check is also shown to catch what
 * the document once lacked, so a check that silently ran no rule would fail here.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createConfig, lint, type Config } from '@redocly/openapi-core';
import { Document, Spectral } from '@stoplight/spectral-core';
import { Json } from '@stoplight/spectral-parsers';
import { oas } from '@stoplight/spectral-rulesets';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { makeReport, startTestService } from '../support/service-fixture';

let dir: string;
let served: Record<string, any>;
let redocly: Config;
let spectral: Spectral;

/**
 * Redocly's config from its YAML text, as a .redocly.yaml holds it. Called through this narrower
 * type because checking a call against createConfig's own parameter types (derived from its config
 * schema) costs the typecheck over ten seconds of a core.
 */
const configFromYaml = createConfig as unknown as (yaml: string) => Promise<Config>;

beforeAll(async () => {
  const svc = await startTestService([makeReport('r1')]);
  try {
    served = await (await fetch(`${svc.url}/openapi.json`)).json();
  } finally {
    await svc.stop();
  }
  dir = mkdtempSync(join(tmpdir(), 'labeldesk-openapi-lint-'));
  redocly = await configFromYaml('extends: [recommended]');
  spectral = new Spectral();
  // What `extends: spectral:oas` in a .spectral.yaml loads: the ruleset's recommended rules.
  spectral.setRuleset({ extends: [[oas as never, 'recommended']] });
});
afterAll(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});

/** The document written to a file, as a tool lints it. */
function written(document: unknown, name: string): string {
  const file = join(dir, name);
  writeFileSync(file, JSON.stringify(document, null, 2));
  return file;
}

async function redoclyProblems(document: unknown, name: string): Promise<string[]> {
  const problems = await lint({ ref: written(document, name), config: redocly });
  return problems.map((p) => `${p.severity} ${p.ruleId}: ${p.message} at ${p.location[0]?.pointer ?? '?'}`);
}

/** Spectral's errors and warnings (severity 0 and 1); information and hints are not failures. */
async function spectralProblems(document: unknown): Promise<string[]> {
  const results = await spectral.run(new Document(JSON.stringify(document, null, 2), Json, written(document, 'spectral.json')));
  return results.filter((r) => r.severity <= 1).map((r) => `${r.severity === 0 ? 'error' : 'warn'} ${r.code}: ${r.message} at ${r.path.join('.')}`);
}

/** The served document with a few things taken out, as it once was. */
function without(...cuts: ((document: Record<string, any>) => void)[]): Record<string, any> {
  const copy = structuredClone(served);
  for (const cut of cuts) cut(copy);
  return copy;
}
const noServers = (d: Record<string, any>) => delete d.servers;
const noLicenseOrContact = (d: Record<string, any>) => {
  delete d.info.license;
  delete d.info.contact;
};
const noTagsOnTheList = (d: Record<string, any>) => delete d.paths['/v2/labelReports'].get.tags;

describe('Redocly lint, recommended rules', () => {
  test('the served document: no error, no warning', async () => {
    expect(await redoclyProblems(served, 'served.json')).toEqual([]);
  });

  test('catches a document without servers or a licence', async () => {
    const problems = await redoclyProblems(without(noServers, noLicenseOrContact), 'cut.json');
    expect(problems).toContainEqual(expect.stringMatching(/^error no-empty-servers: Servers must be present/));
    expect(problems).toContainEqual(expect.stringMatching(/^warn info-license:/));
  });
});

describe('Spectral, spectral:oas', () => {
  test('the served document: no error, no warning', async () => {
    expect(await spectralProblems(served)).toEqual([]);
  });

  test('catches a document without servers, contact or an operation’s tags', async () => {
    const problems = await spectralProblems(without(noServers, noLicenseOrContact, noTagsOnTheList));
    expect(problems).toContainEqual(expect.stringMatching(/^warn oas3-api-servers:/));
    expect(problems).toContainEqual(expect.stringMatching(/^warn info-contact:/));
    expect(problems).toContainEqual(expect.stringMatching(/^warn operation-tags: .* at paths\.\/v2\/labelReports\.get$/));
  });
});
