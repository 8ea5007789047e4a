/**
 * axe-core run inside the page a test drives, as a reviewer's audit runs it: the engine is read
 * from node_modules and evaluated through the driver (the page's own policy allows no inline
 * script, and a test never weakens it), then asked about the whole document or a part of it.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Page } from 'playwright-core';

const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

export interface AxeFinding {
  id: string;
  impact: string | null;
  help: string;
  /** The elements at fault, as CSS selectors, with what axe says is wrong. */
  nodes: string[];
}

/** What axe finds critical or serious on the page (or inside `include`), worded for a failure message. */
export async function seriousViolations(page: Page, include?: string): Promise<AxeFinding[]> {
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(AXE_SOURCE);
  const findings = await page.evaluate(async (within) => {
    const axe = (window as unknown as { axe: { run(context: unknown, options: unknown): Promise<{ violations: { id: string; impact: string | null; help: string; nodes: { target: string[]; failureSummary?: string }[] }[] }> } }).axe;
    const result = await axe.run(within ? { include: [within] } : document, { resultTypes: ['violations'] });
    return result.violations.map((v) => ({ id: v.id, impact: v.impact, help: v.help, nodes: v.nodes.map((n) => `${n.target.join(' ')}: ${n.failureSummary ?? ''}`) }));
  }, include ?? null);
  return findings.filter((f) => f.impact === 'critical' || f.impact === 'serious');
}
