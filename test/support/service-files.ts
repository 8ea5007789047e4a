/**
 * Services on real SQLite files in a test's temp folder, and a read-only look at such a file
 * with plain SQL, for tests that check what was stored rather than what the API answers.
 */
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { openDatabase, type Db } from '../../db/database';
import { openService, type Service, type ServiceOptions } from '../../host/open-service';
import { blankDatabase } from './blank-database';

let counter = 0;

/** A service on a new file in `dir`; its path is `file`. */
export function serviceFile(dir: string, options: ServiceOptions = {}): Service & { file: string } {
  const file = join(dir, `service-${process.pid}-${++counter}.sqlite`);
  return Object.assign(openService(blankDatabase(file), options), { file });
}

/** A read-only connection to the file, to be closed by the caller. */
export function inspect(file: string): Db {
  return openDatabase(file, { readonly: true });
}

/** The first column of every row of `sql` on the file. */
export function column(file: string, sql: string, ...params: unknown[]): unknown[] {
  const db = inspect(file);
  try {
    return db.prepare(sql).pluck().all(...params);
  } finally {
    db.close();
  }
}

/** The export as one string. */
export async function exported(service: Service): Promise<string> {
  const out = new PassThrough();
  const chunks: Buffer[] = [];
  out.on('data', (chunk: Buffer) => chunks.push(chunk));
  await service.exportBundle(out);
  out.end();
  return Buffer.concat(chunks).toString('utf8');
}
