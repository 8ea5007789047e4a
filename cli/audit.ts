/** `labeldesk audit verify|export`: the audit trail's hash chains checked, and the trail as CSV. */
import { CSV_BOM } from '../service/report-csv';
import {
  databaseFile,
  EXIT_FAILURE,
  EXIT_OK,
  openCliService,
  parseCommandArgs,
  plural,
  runSubcommand,
  write,
  type Command,
  type Io,
} from './args';

const USAGE = ['labeldesk audit verify [--db FILE]', 'labeldesk audit export [--db FILE] [--report ID]'].join('\n       ');

const PROBLEM_WORDS = {
  contentChanged: 'content changed',
  brokenLink: 'broken link',
  missingEntry: 'missing entry',
  unsealed: 'no hash',
} as const;

export const auditCommand: Command = {
  name: 'audit',
  summary: 'verify the audit trail and export it as CSV',
  usage: USAGE,
  help: `usage: ${USAGE}

  verify   checks every report's hash chains (its change log, its review entries) and names the
           first broken entry of each: content changed, broken link, missing entry or no hash.
           Exit 0 when every chain is sound, 1 when one is broken.
  export   writes every change log and review entry, with its hashes, as CSV to standard output

options:
  --db FILE      the database (default: the per-user data folder)
  --report ID    only this report's entries (export)

examples:
  labeldesk audit verify --db labeldesk.db
  labeldesk audit export --db labeldesk.db --report 7f3c... > trail.csv
`,
  run(argv: string[], io: Io): Promise<number> {
    return runSubcommand(this, { verify, export: exportTrail }, argv, io);
  },
};

async function verify(argv: string[], io: Io): Promise<number> {
  const { values } = parseCommandArgs(argv, { db: { type: 'string' } }, false);
  const service = openCliService(databaseFile(values.db), 'existing');
  try {
    const result = service.audit.verify();
    const counted = `${plural(result.checked, 'entry', 'entries')} in ${plural(result.chains, 'chain', 'chains')} checked`;
    if (result.problems.length === 0) {
      write(io.out, `${counted}: the audit trail is sound`);
      return EXIT_OK;
    }
    write(io.out, `${counted}: ${plural(result.problems.length, 'chain is', 'chains are')} broken`);
    for (const p of result.problems) {
      const entry = p.table === 'change_log' ? `change_log seq ${p.entry}` : `report_reviews id ${p.entry}`;
      write(io.out, `report ${p.reportId}, ${entry}: ${PROBLEM_WORDS[p.kind]}: ${p.detail}`);
    }
    return EXIT_FAILURE;
  } finally {
    service.close();
  }
}

async function exportTrail(argv: string[], io: Io): Promise<number> {
  const { values } = parseCommandArgs(argv, { db: { type: 'string' }, report: { type: 'string' } }, false);
  const service = openCliService(databaseFile(values.db), 'existing');
  try {
    io.out.write(CSV_BOM);
    for (const line of service.audit.csv(values.report)) io.out.write(line);
    return EXIT_OK;
  } finally {
    service.close();
  }
}
