/**
 * The sync options `labeldesk sync` and `labeldesk serve --remote` share (docs/sync.md#running-it), and the remote key: from LABELDESK_REMOTE_KEY or --remote-key-file, never
 * from argv, where other users of the machine can read it.
 */
import { readFileSync } from 'node:fs';
import { conflictPolicySchema } from '../schema/sync';
import { syncTestBodySchema } from '../schema/sync';
import { SYNC_DEFAULTS } from '../sync/defaults';
import type { SyncOptions } from '../sync';
import { CliError, integerOption, UsageError } from './args';

export const REMOTE_KEY_ENV = 'LABELDESK_REMOTE_KEY';

const MIB = 1024 * 1024;

export const SYNC_ARG_SPECS = {
  remote: { type: 'string' },
  company: { type: 'string' },
  'remote-key-file': { type: 'string' },
  interval: { type: 'string' },
  'page-size': { type: 'string' },
  overlap: { type: 'string' },
  'reconcile-every': { type: 'string' },
  conflicts: { type: 'string' },
  'max-answer-mb': { type: 'string' },
} as const;

export const SYNC_OPTIONS_HELP = `  --remote URL           the remote instance of the label report API (a LabelDesk serve, or the
                         vendor's service); its key comes from ${REMOTE_KEY_ENV} or
                         --remote-key-file, never from the command line
  --remote-key-file FILE a file holding the remote API key (its first line)
  --company ID           the remote key's company (default: asked from the remote's /local/session)
  --interval S           seconds between cycles (default ${SYNC_DEFAULTS.intervalSeconds})
  --page-size N          reports per list page (default ${SYNC_DEFAULTS.pageSize})
  --overlap S            seconds the pull looks back behind its cursor (default ${SYNC_DEFAULTS.overlapSeconds})
  --reconcile-every S    seconds between full comparisons of ids (default ${SYNC_DEFAULTS.reconcileEverySeconds}; also at start)
  --conflicts P          who wins a field changed on both sides: remote (default) or local
  --max-answer-mb N      the largest answer read from the remote, a list page or a report
                         (default ${SYNC_DEFAULTS.maxAnswerBytes / MIB}); a larger one ends the cycle`;

type SyncArgValues = { [K in keyof typeof SYNC_ARG_SPECS]?: string };

/** Words that would put the key in argv: refused with the way to give it instead. */
const KEY_IN_ARGV = /^--(remote-key|key|api-key|remote-api-key)(=|$)/;

/** Refuses a key on the command line before anything else reads argv. */
export function refuseKeyInArgv(argv: readonly string[]): void {
  const word = argv.find((a) => KEY_IN_ARGV.test(a));
  if (word) {
    throw new UsageError(
      `${word.split('=')[0]}: the remote key is never taken from the command line, where other users can read it; ` +
        `set ${REMOTE_KEY_ENV} or give --remote-key-file FILE`,
    );
  }
}

/** The worker's options from the command line and the environment; undefined without --remote. */
export function syncOptionsFrom(values: SyncArgValues, env: NodeJS.ProcessEnv): SyncOptions | undefined {
  if (values.remote === undefined) {
    const stray = (Object.keys(SYNC_ARG_SPECS) as (keyof SyncArgValues)[]).find((k) => k !== 'remote' && values[k] !== undefined);
    if (stray) throw new UsageError(`--${stray} is a sync option: give --remote URL too`);
    return undefined;
  }
  const url = syncTestBodySchema.shape.remoteUrl.safeParse(values.remote);
  if (!url.success) throw new UsageError(`--remote ${values.remote}: must be an http or https URL, such as https://labels.example.com`);
  const conflicts = values.conflicts === undefined ? undefined : conflictPolicySchema.safeParse(values.conflicts);
  if (conflicts && !conflicts.success) throw new UsageError(`--conflicts takes local or remote, not '${values.conflicts}'`);
  if (values.company === '') throw new UsageError('--company needs a company id');
  return {
    remoteUrl: url.data,
    remoteKey: remoteKey(values['remote-key-file'], env),
    companyId: values.company,
    intervalSeconds: optionalInteger('--interval', values.interval, 1),
    pageSize: optionalInteger('--page-size', values['page-size'], 1, 100_000),
    overlapSeconds: optionalInteger('--overlap', values.overlap, 0),
    reconcileEverySeconds: optionalInteger('--reconcile-every', values['reconcile-every'], 1),
    conflicts: conflicts?.data,
    maxAnswerBytes: megabytes(optionalInteger('--max-answer-mb', values['max-answer-mb'], 1, 4096)),
  };
}

function megabytes(count: number | undefined): number | undefined {
  return count === undefined ? undefined : count * MIB;
}

function remoteKey(file: string | undefined, env: NodeJS.ProcessEnv): string {
  if (file !== undefined) {
    let text: string;
    try {
      text = readFileSync(file, 'utf8');
    } catch (err) {
      throw new CliError(`cannot read the remote key file ${file}: ${(err as Error).message}`);
    }
    const key = text.split(/\r?\n/)[0].trim();
    if (key === '') throw new CliError(`the remote key file ${file} is empty: write the key on its first line`);
    return key;
  }
  const key = env[REMOTE_KEY_ENV]?.trim();
  if (!key) throw new UsageError(`no remote key: set ${REMOTE_KEY_ENV} or give --remote-key-file FILE (never the key itself on the command line)`);
  return key;
}

function optionalInteger(name: string, value: string | undefined, min: number, max?: number): number | undefined {
  return value === undefined ? undefined : integerOption(name, value, min, max);
}
