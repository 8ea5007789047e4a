/**
 * The client a local tool writes, with tools nobody here wrote: types generated from the served
 * document by openapi-typescript, requests made with openapi-fetch. The program is type-checked
 * by the TypeScript compiler (so an integer page size, user.name and a typed 404 must check
 * without a cast), then run against a real service on 127.0.0.1.
 */
import { mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import openapiTS, { astToString } from 'openapi-typescript';
import ts from 'typescript';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { makeReport, startTestService, type TestService } from '../support/service-fixture';

const NODE_MODULES = fileURLToPath(new URL('../../node_modules', import.meta.url));

/** What a tool's developer would write against the generated `paths`. */
const CLIENT = `
import createClient from 'openapi-fetch';
import type { components, paths } from './api';

type Report = components['schemas']['LabelReport'];
/** true only when A and B are the same type: any and unknown match nothing else. */
type Same<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;

const pageSizeIsANumber: Same<NonNullable<paths['/v2/labelReports']['get']['parameters']['query']>['pageSize'], number | undefined> = true;
const userNameIsText: Same<NonNullable<Report['user']>['name'], string | undefined> = true;
const presetNameIsText: Same<NonNullable<Report['labelPreset']>['name'], string | undefined> = true;

export async function run(baseUrl: string, apiKey: string) {
  const client = createClient<paths>({ baseUrl, headers: { 'x-api-key': apiKey } });

  const listed = await client.GET('/v2/labelReports', {
    params: { query: { filter: 'status[eq]active', order: 'labelReference[asc]', pageSize: 20, pageNumber: 1 } },
  });
  if (!listed.data) throw new Error('list answered ' + listed.response.status);
  const ids: string[] = listed.data.data.map((report) => report.id);
  const total: number = listed.data.totalDocuments;

  const retrieved = await client.GET('/v2/labelReports/{id}', { params: { path: { id: ids[0] } } });
  if (!retrieved.data) throw new Error('retrieve answered ' + retrieved.response.status);
  const report: Report = retrieved.data;
  const userName: string | undefined = report.user?.name;
  const presetName: string | undefined = report.labelPreset?.name;

  const patched = await client.PATCH('/v2/labelReports/{id}', {
    params: { path: { id: report.id } },
    body: { hasFlag: true, labelReference: 'SHP-2026-0001' },
  });
  if (!patched.data) throw new Error('PATCH answered ' + patched.response.status);
  const flagged: boolean = patched.data.hasFlag;
  const reference: string = patched.data.labelReference;

  const missing = await client.GET('/v2/labelReports/{id}', { params: { path: { id: 'r-other' } } });
  let notFound: { status: 404; code: string } | null = null;
  if (missing.error?.statusCode === 404) notFound = { status: missing.error.statusCode, code: missing.error.code };

  return { ids, total, userName, presetName, flagged, reference, notFound, checked: [pageSizeIsANumber, userNameIsText, presetNameIsText] };
}

/** Never called: what the types must refuse. */
export function refused(client: ReturnType<typeof createClient<paths>>) {
  // @ts-expect-error a page size is a number, not text
  void client.GET('/v2/labelReports', { params: { query: { pageSize: '20' } } });
  // @ts-expect-error hasFlag is a boolean
  void client.PATCH('/v2/labelReports/{id}', { params: { path: { id: 'x' } }, body: { hasFlag: 'yes' } });
  // @ts-expect-error output is normal or minimal
  void client.GET('/v2/labelReports', { params: { query: { output: 'full' } } });
}
`;

let svc: TestService;
let dir: string;

beforeAll(async () => {
  svc = await startTestService([
    makeReport('r1', {
      labelReference: 'B',
      user: { id: 'u-acme-1', name: 'Sanne de Vries', email: 'sanne.devries@acme.example' },
      labelPreset: { id: 'preset-vaccines', name: 'Vaccines 2…8 °C' },
    }),
    makeReport('r2', { labelReference: 'C' }),
    makeReport('r-done', { labelReference: 'A', status: 'completed' }),
    makeReport('r-other', { companyId: 'other' }),
  ]);
  dir = mkdtempSync(join(tmpdir(), 'labeldesk-typed-client-'));
  // The program imports openapi-fetch as a tool's would, from a node_modules beside it.
  symlinkSync(NODE_MODULES, join(dir, 'node_modules'), 'dir');
});
afterAll(async () => {
  await svc?.stop();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

test('a client typed from the served document type-checks, and runs against the service', async () => {
  const document = await (await fetch(`${svc.url}/openapi.json`)).json();
  writeFileSync(join(dir, 'api.d.ts'), astToString(await openapiTS(document)));
  const clientFile = join(dir, 'client.ts');
  writeFileSync(clientFile, CLIENT);

  const program = ts.createProgram([clientFile], {
    strict: true,
    noEmit: true,
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.ESNext,
    moduleResolution: ts.ModuleResolutionKind.Bundler,
    lib: ['lib.es2022.d.ts', 'lib.dom.d.ts'],
    types: [],
    skipLibCheck: true,
  });
  const problems = ts.getPreEmitDiagnostics(program).map((d) => {
    const where = d.file && d.start !== undefined ? `${d.file.fileName.replace(dir, '')}:${d.file.getLineAndCharacterOfPosition(d.start).line + 1} ` : '';
    return where + ts.flattenDiagnosticMessageText(d.messageText, '\n');
  });
  expect(problems).toEqual([]);

  const js = ts.transpileModule(CLIENT, { compilerOptions: { target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.ESNext } }).outputText;
  const runnable = join(dir, 'client.mjs');
  writeFileSync(runnable, js);
  const { run } = (await import(/* @vite-ignore */ pathToFileURL(runnable).href)) as { run: (baseUrl: string, key: string) => Promise<unknown> };
  // The base URL a tool reads from the document's servers.
  expect(document.servers[0].url).toBe(svc.url);
  expect(await run(document.servers[0].url, svc.keys.acme)).toEqual({
    ids: ['r1', 'r2'],
    total: 2,
    userName: 'Sanne de Vries',
    presetName: 'Vaccines 2…8 °C',
    flagged: true,
    reference: 'SHP-2026-0001',
    notFound: { status: 404, code: 'REPORT_NOT_FOUND' },
    checked: [true, true, true],
  });
});
