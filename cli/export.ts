/** `labeldesk export`: the database as a bundle that imports back to the same data. */
import { once } from 'node:events';
import { createWriteStream, existsSync, renameSync, rmSync } from 'node:fs';
import path from 'node:path';
import type { Writable } from 'node:stream';
import { finished } from 'node:stream/promises';
import type { ExportCounts } from '../service/bundle-export';
import type { Service } from '../host/open-service';
import {
  CliError,
  databaseFile,
  EXIT_OK,
  openCliService,
  parseCommandArgs,
  plural,
  write,
  type Command,
  type Io,
} from './args';

const USAGE = 'labeldesk export [--db FILE] [--out FILE]';

export const exportCommand: Command = {
  name: 'export',
  summary: 'write the database as a bundle (API keys as hashes, never keys)',
  usage: USAGE,
  help: `usage: ${USAGE}

Writes every company, API key (as "keyHash", never the key) and label report as a bundle that
'labeldesk import' reads back to the same data. Without --out the bundle goes to standard
output. With --out the file appears only when the export is complete.

options:
  --db FILE    the database (default: the per-user data folder)
  --out FILE   where to write the bundle (default: standard output)

examples:
  labeldesk export --db labeldesk.db --out backup.json
  labeldesk export --db labeldesk.db | gzip > backup.json.gz
`,
  async run(argv: string[], io: Io): Promise<number> {
    const { values } = parseCommandArgs(
      argv,
      { db: { type: 'string' }, out: { type: 'string', short: 'o' } },
      false,
    );
    const out = values.out === undefined ? undefined : path.resolve(values.out);
    if (out !== undefined && !existsSync(path.dirname(out))) {
      throw new CliError(`cannot write ${out}: the folder ${path.dirname(out)} does not exist`);
    }
    const service = openCliService(databaseFile(values.db), 'existing');
    try {
      if (out === undefined) {
        const counts = await exportTo(service, io.out as Writable);
        write(io.err, summary(counts));
        return EXIT_OK;
      }
      const counts = await exportToFile(service, out);
      write(io.out, `${summary(counts)} to ${out}`);
      return EXIT_OK;
    } finally {
      service.close();
    }
  },
};

function summary(counts: ExportCounts): string {
  return `exported ${plural(counts.companies, 'company', 'companies')}, ${plural(counts.apiKeys, 'API key', 'API keys')}, ${plural(counts.labelReports, 'label report', 'label reports')}`;
}

async function exportTo(service: Service, out: Writable): Promise<ExportCounts> {
  try {
    return await service.exportBundle(out);
  } catch (err) {
    throw new CliError(`the export stopped: ${(err as Error).message}`);
  }
}

/** Writes to a temporary file beside the target and renames it once complete. */
async function exportToFile(service: Service, file: string): Promise<ExportCounts> {
  const partial = `${file}.partial-${process.pid}`;
  const stream = createWriteStream(partial);
  try {
    await once(stream, 'open');
    const counts = await exportTo(service, stream);
    stream.end();
    await finished(stream);
    if (!stream.closed) await once(stream, 'close');
    renameSync(partial, file);
    return counts;
  } catch (err) {
    stream.destroy();
    rmSync(partial, { force: true });
    if (err instanceof CliError) throw err;
    throw new CliError(`cannot write ${file}: ${(err as Error).message}`);
  }
}
