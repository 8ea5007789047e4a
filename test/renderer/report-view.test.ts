import { describe, expect, it } from 'vitest';
import { editRights, lockNotices } from '../../renderer/lib/permissions';
import { effectiveSenseData, excursionRanges, mergeRanges, toMinimalRow, trimRange } from '../../renderer/lib/report-view';
import { minimalLabelReportSchema } from '../../schema/report';
import { readings, sampleReport } from './fixtures';

const T0 = 1_700_000_000;

describe('report facts for the detail', () => {
  it('finds the excursions as time ranges, half an interval wide on each side', () => {
    const dps = readings([5, 9, 10, 5, 8, 1, 5, 9]);
    expect(excursionRanges(dps, { minTemperature: 2, maxTemperature: 8 }, 600)).toEqual([
      { start: T0 + 600 - 300, end: T0 + 1200 + 300 },
      { start: T0 + 3000 - 300, end: T0 + 3000 + 300 },
      { start: T0 + 4200 - 300, end: T0 + 4200 + 300 },
    ]);
  });

  it('counts humidity violations only where a humidity limit is set', () => {
    const dps = readings([5, 5, 5], T0, [40, 90, 40]);
    expect(excursionRanges(dps, { minTemperature: 2, maxTemperature: 8 }, 600)).toEqual([]);
    expect(excursionRanges(dps, { minTemperature: 2, maxTemperature: 8, maxHumidity: 80 }, 600)).toHaveLength(1);
  });

  it('reads the trim range from the trimmed datapoints', () => {
    const dps = readings([5, 6, 7, 8]);
    const report = sampleReport(dps);
    expect(trimRange(report)).toBeNull();
    const trimmed = sampleReport(dps, { trimmedSenseData: { ...report.calculatedSenseData, datapoints: dps.slice(1, 3) } });
    expect(trimRange(trimmed)).toEqual({ start: T0 + 600, end: T0 + 1200 });
    expect(effectiveSenseData(trimmed).datapoints).toHaveLength(2);
  });

  it('turns a PATCH answer into a list row with the flags of the effective timeline', () => {
    const dps = readings([5, 9, 5, 5]);
    const report = sampleReport(dps, { hasFlag: true, labelReference: 'X' });
    const row = minimalLabelReportSchema.parse(toMinimalRow(report));
    expect(row.minimalSenseData.flattenedDatapoints).toEqual([0, 1, 0, 0]);
    expect(row.hasFlag).toBe(true);
    expect(row.labelReference).toBe('X');
    expect(row.label).toEqual({ uid: 'U1', sequenceCode: 'SEQ1' });
  });

  it('merges the closest excursion ranges down to a maximum', () => {
    const ranges = [
      { start: 0, end: 1 },
      { start: 2, end: 3 },
      { start: 10, end: 11 },
      { start: 11.5, end: 12 },
      { start: 30, end: 31 },
    ];
    expect(mergeRanges(ranges, 10)).toEqual(ranges);
    expect(mergeRanges(ranges, 3)).toEqual([
      { start: 0, end: 3 },
      { start: 10, end: 12 },
      { start: 30, end: 31 },
    ]);
    expect(mergeRanges(ranges, 1)).toEqual([{ start: 0, end: 31 }]);
  });
});

describe('edit rights', () => {
  const report = sampleReport(readings([5]));
  const all = ['labelReports:read', 'labelReports:update'];
  it('lets the owner change everything', () => {
    const r = editRights(report, { companyId: 'acme', permissions: all });
    expect(r).toMatchObject({ role: 'owner', canEditLimits: true, canEditBookkeeping: true, canFlagArchive: true, canTrim: true });
  });
  it('tells an editor that only the owning company changes limits', () => {
    const r = editRights(report, { companyId: 'nordic', permissions: all });
    expect(r.canEditLimits).toBe(false);
    expect(r.limitsReason).toMatch(/Only the owning company \(ACME Pharma\) can change limits; your company is an editor/);
    expect(r.canEditBookkeeping && r.canTrim && r.canFlagArchive).toBe(true);
  });
  it('lets a viewer only flag and archive', () => {
    const r = editRights(report, { companyId: 'fresh', permissions: all });
    expect(r).toMatchObject({ role: 'viewer', canEditLimits: false, canEditBookkeeping: false, canTrim: false, canFlagArchive: true });
    expect(r.bookkeepingReason).toMatch(/Your company is a viewer on this report: it may flag, archive and comment/);
    // Said once, at the limits: the later sections add nothing.
    expect(lockNotices(r)).toEqual({ flags: null, limits: r.bookkeepingReason, bookkeeping: null, customFields: null, trim: null });
  });
  it('explains a read-only key', () => {
    const r = editRights(report, { companyId: 'acme', permissions: ['labelReports:read'] });
    expect(r.canFlagArchive || r.canEditLimits || r.canEditBookkeeping).toBe(false);
    expect(r.flagReason).toBe('This key may only read reports, so nothing on this report can be changed with it.');
    expect(r.flagReason).not.toMatch(/labelReports|:/);
    expect(lockNotices(r)).toEqual({ flags: r.flagReason, limits: null, bookkeeping: null, customFields: null, trim: null });
  });
});
