/**
 * The files listed to start first exist (a renamed file would silently lose its place), and the
 * sequencer puts them first in the listed order, the others after in vitest's own order.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { TestSpecification, Vitest } from 'vitest/node';
import { expect, it } from 'vitest';
import SuiteSequencer, { LONGEST_FIRST } from './sequencer';

const REPO = fileURLToPath(new URL('../../', import.meta.url));

it('lists files that exist, each once', () => {
  for (const file of LONGEST_FIRST) expect(existsSync(join(REPO, file)), file).toBe(true);
  expect(new Set(LONGEST_FIRST).size).toBe(LONGEST_FIRST.length);
});

it('starts the listed files first, in the listed order, and keeps the order of the rest', async () => {
  const project = { name: 'shared', config: { sequence: { groupOrder: 0 }, isolate: false } };
  // vitest has timed none of them, as in a fresh clone: it orders by size, largest first.
  const sizes = new Map<string, number>();
  const spec = (file: string, size: number) => {
    sizes.set(`shared:${file}`, size);
    return { moduleId: join(REPO, file), project } as unknown as TestSpecification;
  };
  const ctx = {
    config: { root: REPO },
    cache: { getFileTestResults: () => undefined, getFileStats: (key: string) => ({ size: sizes.get(key) }) },
  } as unknown as Vitest;
  const files = [
    spec('test/a.test.ts', 10),
    spec(LONGEST_FIRST[2], 5),
    spec('test/b.test.ts', 30),
    spec(LONGEST_FIRST[0], 1),
    spec('test/c.test.ts', 20),
  ];
  const sorted = await new SuiteSequencer(ctx).sort(files);
  expect(sorted.map((s) => s.moduleId.slice(REPO.length))).toEqual([LONGEST_FIRST[0], LONGEST_FIRST[2], 'test/b.test.ts', 'test/c.test.ts', 'test/a.test.ts']);
});
