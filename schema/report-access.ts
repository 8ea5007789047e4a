/**
 * Shapes of the record of who viewed, printed or exported which report
 * (docs/review-and-audit.md#who-saw-a-report): what the in-app print tells the service, and the
 * list a report's access answers.
 */
import { z } from 'zod';

export const ACCESS_KINDS = ['view', 'print', 'export'] as const;
export type AccessKind = (typeof ACCESS_KINDS)[number];
/** json: the report retrieved; print: printed in the app; certificate: its release certificate issued (printed or as PDF); the rest: the file exported. */
export const ACCESS_FORMATS = ['json', 'print', 'pdf', 'readingsCsv', 'historyCsv', 'listCsv', 'certificate'] as const;
export type AccessFormat = (typeof ACCESS_FORMATS)[number];
export const ACCESS_ACTORS = ['person', 'apiKey', 'commandLine'] as const;
export type AccessActor = (typeof ACCESS_ACTORS)[number];

/** POST /local/labelReports/:id/printed: printed on paper (the default), or saved as PDF by the desktop app. */
export const printedBodySchema = z
  .object({
    format: z.enum(['print', 'pdf']).optional().describe('print (default): printed from the app; pdf: saved as PDF by the desktop app'),
  })
  .strict();
export type PrintedBody = z.infer<typeof printedBodySchema>;

export const accessEntrySchema = z.object({
  id: z.int().positive().describe('The entry’s place in the access chain'),
  at: z.string().describe('ISO 8601 UTC'),
  kind: z.enum(ACCESS_KINDS),
  format: z.enum(ACCESS_FORMATS),
  detail: z.string().nullable().describe('For the command line: which account ran it, on which computer'),
  actor: z.enum(ACCESS_ACTORS),
  apiKeyId: z.string().nullable().describe('The key, when no person signed in'),
  apiKeyName: z.string().nullable(),
  person: z.object({ id: z.string(), login: z.string(), name: z.string() }).nullable().describe('The person signed in'),
});
export type AccessEntryView = z.infer<typeof accessEntrySchema>;

export const reportAccessSchema = z.object({
  total: z.int().nonnegative().describe('Entries of the company (and the command line) on this report in all'),
  entries: z.array(accessEntrySchema).describe('Newest first, at most 500'),
});
export type ReportAccessList = z.infer<typeof reportAccessSchema>;
