/**
 * How many reports hold a trigram, read from the trigram index itself (an fts5vocab table in this
 * connection's temporary schema) and kept as a planning statistic: a count is taken again only
 * once the number of reports has grown or shrunk by a quarter since it was taken. A stale count
 * only makes a search slower, never its answer different (see TrigramFrequency).
 */
import type { Statement } from 'better-sqlite3';
import type { Db } from '../database';
import type { TrigramFrequency } from './compile';

/** Counts kept at most; past it they are all taken again as needed. */
const KEPT = 2_000;
/** How far the number of reports may move before a count is taken again. */
const DRIFT = 1.25;

export class TrigramCounts {
  private readonly counts = new Map<string, { reports: number; atSize: number }>();
  private statements: { count: Statement; size: Statement } | null = null;

  constructor(private readonly db: Db) {}

  readonly frequency: TrigramFrequency = (column, trigram) => {
    try {
      return this.count(column, trigram);
    } catch (error) {
      // The vocabulary table lives in this connection's temporary schema: made inside a
      // transaction that then rolled back (a write that failed), it is gone. Made again.
      if (!/no such table: temp\.report_text_terms/.test((error as Error).message)) throw error;
      this.statements = null;
      return this.count(column, trigram);
    }
  };

  private count(column: string, trigram: string): number | undefined {
    const statements = this.prepare();
    if (!statements) return undefined;
    const size = (statements.size.pluck().get() as number | null) ?? 0;
    const key = `${column}\0${trigram}`;
    const kept = this.counts.get(key);
    if (kept && size <= kept.atSize * DRIFT && size >= kept.atSize / DRIFT) return kept.reports;
    if (this.counts.size >= KEPT) this.counts.clear();
    const reports = (statements.count.pluck().get(trigram, column) as number | undefined) ?? 0;
    this.counts.set(key, { reports, atSize: size });
    return reports;
  }

  /** The statements, once the text index exists (an old schema has none: then nothing is known). */
  private prepare(): { count: Statement; size: Statement } | null {
    if (this.statements) return this.statements;
    const hasIndex = this.db.prepare(`SELECT 1 FROM sqlite_schema WHERE name = 'report_text'`).get() !== undefined;
    if (!hasIndex) return null;
    this.db.exec('CREATE VIRTUAL TABLE IF NOT EXISTS temp.report_text_terms USING fts5vocab(main, report_text, col)');
    this.statements = {
      count: this.db.prepare('SELECT doc FROM temp.report_text_terms WHERE term = ? AND col = ?'),
      // The newest report key: about how many reports there have been, found in one index step.
      size: this.db.prepare('SELECT max(rk) FROM report_keys'),
    };
    return this.statements;
  }
}
