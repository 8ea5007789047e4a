/**
 * One folder per run for what test files share across workers (the built renderer, demo
 * databases: test/support/run-cache.ts), so each is made once per run rather than once per file,
 * and removed when the run ends.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The run's shared folder; see test/support/run-cache.ts. */
    runDir: string;
  }
}

export default function setup(project: TestProject): () => void {
  const runDir = mkdtempSync(join(tmpdir(), 'labeldesk-run-'));
  project.provide('runDir', runDir);
  return () => rmSync(runDir, { recursive: true, force: true });
}
