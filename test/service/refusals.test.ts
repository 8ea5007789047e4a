/**
 * The rules speak in their own refusals (model/errors.ts); only the HTTP layer turns them into
 * statuses. Read from the source itself: service/ and sync/ do not reach for the HTTP error at
 * all, and nothing outside http/ makes one.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { describe, expect, test } from 'vitest';

const ROOT = join(__dirname, '..', '..');
/** Not the application's source: packages, build output, and the tests, which may look at any answer. */
const SKIPPED = new Set(['node_modules', 'build', 'dist', 'release', 'test', 'test-artifacts', 'reports', '.git', '.stryker-tmp', '.vite']);

function sourceFiles(dir: string): string[] {
  const found: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (SKIPPED.has(entry.name)) continue;
    const path = join(dir, entry.name);
    if (entry.isDirectory()) found.push(...sourceFiles(path));
    else if (/\.(ts|tsx|mts|cts)$/.test(entry.name) && !entry.name.endsWith('.d.ts')) found.push(path);
  }
  return found;
}

const files = sourceFiles(ROOT).map((path) => ({ name: relative(ROOT, path).split(sep).join('/'), text: readFileSync(path, 'utf8') }));
const API_ERROR_MODULE = /from\s+['"][./]*(?:\.\.\/)*schema\/api-error['"]/;
const IMPORT_FROM_API_ERROR = /import\s+(type\s+)?\{([^}]*)\}\s*from\s+['"][./]*schema\/api-error['"]/g;

/** The names a file imports as values (not types only) from schema/api-error.ts. */
function valueImports(text: string): string[] {
  const names: string[] = [];
  for (const [, typeOnly, list] of text.matchAll(IMPORT_FROM_API_ERROR)) {
    if (typeOnly) continue;
    for (const item of list.split(',').map((part) => part.trim()).filter(Boolean)) {
      if (!item.startsWith('type ')) names.push(item.split(/\s+as\s+/)[0]);
    }
  }
  return names;
}

describe('refusals without HTTP', () => {
  test('the source is found', () => {
    const names = files.map((file) => file.name);
    expect(names).toContain('model/errors.ts');
    expect(names).toContain('sync/mirror.ts');
    expect(names).toContain('http/errors.ts');
  });

  test('service/ and sync/ do not import schema/api-error.ts', () => {
    const importing = files.filter((file) => /^(service|sync)\//.test(file.name) && API_ERROR_MODULE.test(file.text)).map((file) => file.name);
    expect(importing).toEqual([]);
  });

  test('no file outside http/ makes an ApiError', () => {
    const outside = files.filter((file) => !file.name.startsWith('http/') && file.name !== 'schema/api-error.ts');
    const making = outside
      .filter((file) => /\bnew\s+ApiError\s*\(/.test(file.text) || valueImports(file.text).some((name) => name === 'ApiError' || name === 'badRequest'))
      .map((file) => file.name);
    expect(making).toEqual([]);
  });

  test('the check sees an import and a construction where there is one', () => {
    expect(valueImports("import { ApiError, type ApiErrorBody } from '../schema/api-error';")).toEqual(['ApiError']);
    expect(valueImports("import { badRequest as refuse } from '../../schema/api-error';")).toEqual(['badRequest']);
    expect(valueImports("import type { ApiError } from '../schema/api-error';")).toEqual([]);
    expect(valueImports("import { apiErrorBodySchema } from '../../schema/api-error';")).toEqual(['apiErrorBodySchema']);
    expect(API_ERROR_MODULE.test("import { ApiError } from '../schema/api-error';")).toBe(true);
    const http = files.filter((file) => file.name.startsWith('http/'));
    expect(http.some((file) => /\bnew\s+ApiError\s*\(/.test(file.text))).toBe(true);
  });
});
