/**
 * Importing a bundle (docs/cli.md#bundle-format): validate everything, write everything in ONE transaction,
 * upserting by id; when anything is wrong, report every problem with its JSON path and write
 * nothing.
 *
 * The bundle is streamed: a byte-level scanner walks the top-level object and hands over one
 * element of `companies`, `apiKeys` or `labelReports` at a time; each element is parsed,
 * validated and written inside an open transaction as it arrives, so memory is bounded by the
 * largest element, not by the bundle. Checks that need the whole bundle (company references,
 * duplicate ids) go through staging tables (db/import-staging.ts) and run at the end, before
 * COMMIT. Foreign keys are deferred to COMMIT, so a bundle may list its reports before
 * the companies they name.
 *
 * Three steps, one file each, joined by the pipeline (`pipeline.ts`):
 * - the *reader* (`bundle-reader.ts`, on the byte scanner of `json-scanner.ts`) splits the bytes
 *   into top-level values;
 * - the *processor* (`element-processor.ts`: JSON.parse, zod with the fast datapoint check of
 *   `datapoint-check.ts`, sense figures; no database) turns each value into an outcome;
 * - the *sink* (`import-sink.ts`) applies the outcomes: duplicates, references, and each
 *   report through the one write path (`report-writer.ts`), which logs it.
 * With `parallel: true` the processor runs in a worker thread (`parse-worker.ts`), so parsing
 * overlaps scanning and writing.
 *
 * Why not stream-json's token parser: on its own it tokenises about 4 000 reports of 200
 * datapoints a second, below the import target before any validation or writing; splitting
 * elements here and handing each one to the native JSON.parse is several times faster, with the
 * same bounded memory.
 */
import type { DataStore } from '../../db/data-store';
import type { ReportWriter } from '../report-writer';
import { BundleReader } from './bundle-reader';
import { ImportSink } from './import-sink';
import { Pipeline } from './pipeline';

export { DATAPOINT_PLAN, validateBundleReport } from './datapoint-check';
export { derivedUuid } from '../../schema/derived-uuid';
export { BundleSyntaxError } from './json-scanner';

export const MAX_PROBLEMS = 100;
/** A single value (one report) larger than this is refused: it could not be held in memory as one string. */
export const MAX_ELEMENT_BYTES = 256 * 1024 * 1024;

export interface ImportProblem {
  /** JSON path of the offending input, `$.labelReports[3].senseConfig.interval`. */
  path: string;
  message: string;
}

export interface ImportCounts {
  companies: number;
  apiKeys: number;
  labelReports: number;
}

export interface ImportResult {
  /** True when the bundle was valid and its content is committed. */
  ok: boolean;
  /** Valid elements seen; when `ok`, what was imported. */
  counts: ImportCounts;
  /** The first problems found (at most `maxProblems`), in bundle order; empty when `ok`. */
  problems: ImportProblem[];
  /** Every problem found, including those beyond `problems`. */
  problemCount: number;
  /** Whether a worker thread did the parsing (see `ImportOptions.parallel`). */
  parallel: boolean;
}

export interface ImportOptions {
  /** How many problems to keep in `problems`; counting goes on past it. Default 100. */
  maxProblems?: number;
  /** Creation time of API keys new to the database. */
  now?: () => Date;
  maxElementBytes?: number;
  /**
   * Parse and validate in a worker thread while this thread writes. Worth it for large bundles
   * (it costs a worker start); falls back to a single thread when no worker can be started.
   */
  parallel?: boolean;
  /**
   * Told as each step of the import begins (`staging`, `checking`, `copying`, `listing`,
   * `committing`, `analysing`) and `done` at the end; whoever measures the import times them.
   */
  onPhase?: (phase: ImportPhase) => void;
}

export type ImportPhase = 'staging' | 'checking' | 'copying' | 'listing' | 'committing' | 'analysing' | 'done';

export type BundleSource = AsyncIterable<Buffer | Uint8Array | string>;

/**
 * Reads, validates and imports a bundle. Resolves with the problems when the bundle is invalid
 * (nothing is written then); rejects only when reading or the database fails, after rolling back.
 * While the bundle streams in, everything is staged in temporary tables, so other writers (a
 * PATCH to the running service) go on; then it is switched in with one short write transaction.
 * The connection must not be used by anyone else until the promise settles: the staging
 * transaction stays open across reads.
 */
export async function importBundle(
  data: DataStore,
  writer: ReportWriter,
  source: BundleSource,
  options: ImportOptions = {},
): Promise<ImportResult> {
  return data.withLargeCache(() => importWithCache(data, writer, source, options));
}

async function importWithCache(data: DataStore, writer: ReportWriter, source: BundleSource, options: ImportOptions): Promise<ImportResult> {
  const phase = options.onPhase ?? (() => {});
  phase('staging');
  const staging = data.begin();
  const pipeline = new Pipeline(options.parallel === true);
  let sink: ImportSink | undefined;
  try {
    sink = new ImportSink(data, writer, {
      maxProblems: options.maxProblems ?? MAX_PROBLEMS,
      now: (options.now?.() ?? new Date()).toISOString(),
    });
    await pipeline.run(new BundleReader(options.maxElementBytes ?? MAX_ELEMENT_BYTES), source, sink);
    // The workers have nothing left to parse: their memory goes back before the switch-in,
    // whose sorts are the other peak of an import.
    pipeline.close();
    phase('checking');
    sink.finish();
    const ok = sink.problemCount === 0;
    if (ok) {
      // Only the temporary tables were written: committing them touches no data.
      staging.commit();
      phase('copying');
      const switching = sink;
      data.withRollbackJournal(() => switching.switchIn(phase));
      phase('analysing');
      data.optimize();
    } else {
      staging.rollback();
    }
    phase('done');
    return { ok, counts: sink.counts, problems: sink.problems, problemCount: sink.problemCount, parallel: pipeline.usedWorker };
  } catch (err) {
    staging.rollback();
    throw err;
  } finally {
    sink?.dropStaging();
    pipeline.close();
  }
}
