/**
 * What migration 022's kept group figures cost a write, in pages of the write-ahead log: the
 * same writes on the same reports, on a database before the migration and on one after it. A
 * write that moves no figure and no kept split writes exactly the pages it wrote before; a tap
 * and a new report add at most the pages of the kept rows they move (one row per kept time
 * field and one without time; a row's page and, seldom, the one a split adds) and, for a change
 * of a stored report, the page of its hold (023).
 */
import { expect, it } from 'vitest';
import { MIGRATIONS } from '../../db/database';
import groupFigures from '../../db/migrations/022-group-figures';
import groupFiguresOncePerWrite from '../../db/migrations/023-group-figures-once-per-write';
import type { BundleReport } from '../../schema/bundle';
import { reportFromBundle } from '../../service/report-from-bundle';
import { T0 } from '../support/service-fixture';
import { temporaryFolder } from './migration-fixture';
import { beforeAndAfter, pagesOnBoth, renamedThenTapped, siteLikeReport } from './migration-write-pages';

const dir = temporaryFolder('labeldesk-group-figures-writes-');
const BEFORE = MIGRATIONS.indexOf(groupFigures);
/** Through 023, whose hold is part of what the kept figures cost; later migrations are not. */
const AFTER = MIGRATIONS.indexOf(groupFiguresOncePerWrite) + 1;
/** Enough reports over enough days that the kept tables span several pages, as at a site. */
const REPORTS = 3000;

function reportAt(i: number, overrides: Partial<BundleReport> = {}): BundleReport {
  return siteLikeReport('g', i, { firstMs: Date.UTC(2025, 0, 1), everyMs: 6 * 3_600_000, readingsFrom: T0 + i * 21_600 }, overrides);
}

it('a write that moves no kept figure writes the same pages as before the migration; a tap and a new report, a few more', () => {
  const copies = beforeAndAfter(dir(), BEFORE, Array.from({ length: REPORTS }, (_, i) => reportAt(i)), AFTER);
  const { after } = copies;
  try {
    expect(after.db.prepare('SELECT count(*) FROM group_figures_time').pluck().get()).toBeGreaterThan(500);
    const i = REPORTS / 2;
    const { original, renamed, tapped } = renamedThenTapped(reportAt, i, T0 + i * 21_600);
    const created = reportFromBundle(reportAt(REPORTS + 7, { created: new Date(Date.UTC(2025, 0, 1) + i * 6 * 3_600_000 + 60_000).toISOString() }));

    const rename = pagesOnBoth(copies, (store) => store.write(renamed, original));
    expect(rename[1]).toBe(rename[0]);

    const tap = pagesOnBoth(copies, (store) => store.write(tapped, renamed));
    const create = pagesOnBoth(copies, (store) => store.write(created));
    expect(tap[1]).toBeGreaterThanOrEqual(tap[0]);
    expect(tap[1] - tap[0]).toBeLessThanOrEqual(6);
    expect(create[1]).toBeGreaterThanOrEqual(create[0]);
    expect(create[1] - create[0]).toBeLessThanOrEqual(6);
    if (process.env.LABELDESK_SHOW_PAGES) console.log(`pages: rename ${rename.join(' → ')}, tap ${tap.join(' → ')}, create ${create.join(' → ')}`);
  } finally {
    copies.close();
  }
}, 120_000);
