/**
 * Test files share their worker's modules (vitest.config.ts), so a file that replaces a module or
 * changes the process's time zone must be listed to run with its own: otherwise it would see, or
 * leave behind, another file's modules, and pass or fail by which files shared its worker.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';
import { OWN_MODULES } from '../../vitest.config';

const REPO = fileURLToPath(new URL('../../', import.meta.url));

function testFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return testFiles(path);
    return /\.test\.tsx?$/.test(entry.name) ? [relative(REPO, path)] : [];
  });
}

it('lists every test file that replaces a module or sets the time zone, and only those', () => {
  const needing = testFiles(join(REPO, 'test'))
    .filter((file) => /\bvi\.(mock|doMock)\(|process\.env\.TZ\s*=/.test(readFileSync(join(REPO, file), 'utf8')))
    .sort();
  expect(needing.length).toBeGreaterThan(0);
  expect([...OWN_MODULES].sort()).toEqual(needing);
});
