/**
 * `labeldesk demo`: the demo companies, keys and label reports of demo/, written into a
 * database. The same seed gives the same data and the same keys.
 */
import { DEFAULT_DEMO } from '../demo';
import type { DemoSummary } from '../service/demo-seeder';
import {
  CliError,
  databaseFile,
  EXIT_OK,
  integerOption,
  openCliService,
  parseCommandArgs,
  plural,
  table,
  write,
  type Command,
  type Io,
} from './args';

const USAGE = 'labeldesk demo [--db FILE] [--reports N] [--seed S]';

export const demoCommand: Command = {
  name: 'demo',
  summary: 'create demo companies, API keys and label reports (the same for the same seed)',
  usage: USAGE,
  help: `usage: ${USAGE}

Creates three demo companies (acme, nordic, fresh), their API keys and N realistic label
reports, deterministically: the same seed gives the same data and the same keys. Running it
again with the same seed changes nothing. Prints the keys.

options:
  --db FILE      the database (created when missing; default: the per-user data folder)
  --reports N    how many label reports (default ${DEFAULT_DEMO.reports})
  --seed S       any whole number (default ${DEFAULT_DEMO.seed})

examples:
  labeldesk demo --db demo.db
  labeldesk demo --db big.db --reports 20000 --seed 42
`,
  async run(argv: string[], io: Io): Promise<number> {
    const { values } = parseCommandArgs(
      argv,
      { db: { type: 'string' }, reports: { type: 'string' }, seed: { type: 'string' } },
      false,
    );
    const reports = values.reports === undefined ? DEFAULT_DEMO.reports : integerOption('--reports', values.reports, 0, 10_000_000);
    const seed = values.seed === undefined ? DEFAULT_DEMO.seed : integerOption('--seed', values.seed, Number.MIN_SAFE_INTEGER);
    const file = databaseFile(values.db);
    const service = openCliService(file, 'create');
    try {
      const started = performance.now();
      let summary: DemoSummary;
      try {
        summary = service.createDemoData({ reports, seed });
      } catch (err) {
        throw new CliError(`could not create the demo data: ${(err as Error).message}`);
      }
      const seconds = (performance.now() - started) / 1000;
      write(io.out, `created ${plural(summary.companies.length, 'company', 'companies')}, ${plural(summary.keys.length, 'API key', 'API keys')} and ${plural(summary.reports, 'label report', 'label reports')} (seed ${seed}) in ${file} in ${seconds.toFixed(1)} s\n`);
      write(io.out, demoKeyTable(summary));
      return EXIT_OK;
    } finally {
      service.close();
    }
  },
};

/** The demo keys as a table: company, permissions, key. */
export function demoKeyTable(summary: Pick<DemoSummary, 'keys'>): string {
  return table(
    ['COMPANY', 'PERMISSIONS', 'KEY'],
    summary.keys.map((k) => [k.companyId, k.permissions.join(','), k.key]),
  );
}
