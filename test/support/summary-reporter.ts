import { relative } from 'node:path';
import type { Reporter, TestModule } from 'vitest/node';

/** How many of the slowest files the summary names: the suite's time is spent in a few of them, and test/support/sequencer.ts lists them. */
const SLOWEST = 20;

const seconds = (ms: number): string => `${(ms / 1000).toFixed(1)}s`.padStart(7);

/**
 * Ends the run with the slowest files, each split into import, hooks (browsers, servers and
 * databases made in beforeAll/beforeEach) and tests, so a slow file shows where its time goes;
 * then one plain `N passed, N failed, N skipped` line that any CI log reader can count.
 */
export default class SummaryReporter implements Reporter {
  onTestRunEnd(testModules: ReadonlyArray<TestModule>): void {
    let passed = 0;
    let failed = 0;
    let skipped = 0;
    const files: { name: string; total: number; collect: number; hooks: number; tests: number }[] = [];
    for (const mod of testModules) {
      let tests = 0;
      for (const test of mod.children.allTests()) {
        const state = test.result().state;
        if (state === 'passed') passed++;
        else if (state === 'failed') failed++;
        else skipped++;
        tests += test.diagnostic()?.duration ?? 0;
      }
      const d = mod.diagnostic();
      files.push({
        name: relative(process.cwd(), mod.moduleId),
        total: d.collectDuration + d.duration,
        collect: d.collectDuration,
        hooks: Math.max(0, d.duration - tests),
        tests,
      });
    }
    files.sort((a, b) => b.total - a.total);
    const lines = files
      .slice(0, SLOWEST)
      .map((f) => `${seconds(f.total)} =${seconds(f.collect)} import +${seconds(f.hooks)} hooks +${seconds(f.tests)} tests  ${f.name}`);
    if (lines.length > 0) process.stdout.write(`\nSlowest files:\n${lines.join('\n')}\n`);
    process.stdout.write(`\n${passed} passed, ${failed} failed, ${skipped} skipped\n`);
  }
}
