/**
 * Zod failures as text people read, the same in the service's 400 answers, the command line and
 * the renderer's own checks. Bundled into the renderer, so no Node API here.
 */
import type { z } from 'zod';

/**
 * One line a person can act on: each problem prefixed by the JSON path it is about, at most
 * `limit` of them and a count of the rest. `root` names what was checked when it is not a JSON
 * document of its own (a single form field).
 */
export function describeZodError(error: z.ZodError, root = '$', limit = 5): string {
  const parts = error.issues.slice(0, limit).map((issue) => `${formatPath(issue.path, root)}: ${issue.message}`);
  if (error.issues.length > limit) parts.push(`and ${error.issues.length - limit} more`);
  return parts.join('; ');
}

/** `$.labelReports[3].senseConfig.interval`, the way the bundle's problems are named. */
export function formatPath(path: readonly PropertyKey[], root = '$'): string {
  let out = root;
  for (const key of path) out += typeof key === 'number' ? `[${key}]` : `.${String(key)}`;
  return out;
}
