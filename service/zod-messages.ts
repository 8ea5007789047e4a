import type { z } from 'zod';

/** One line a person can act on: each problem prefixed by the JSON path it is about. */
export function describeZodError(error: z.ZodError, limit = 5): string {
  const parts = error.issues.slice(0, limit).map((issue) => `${formatPath(issue.path)}: ${issue.message}`);
  if (error.issues.length > limit) parts.push(`and ${error.issues.length - limit} more`);
  return parts.join('; ');
}

/** `$.labelReports[3].senseConfig.interval`, the way the bundle's problems are named. */
export function formatPath(path: readonly PropertyKey[], root = '$'): string {
  let out = root;
  for (const key of path) out += typeof key === 'number' ? `[${key}]` : `.${String(key)}`;
  return out;
}
