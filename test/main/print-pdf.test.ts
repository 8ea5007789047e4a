import { describe, expect, it } from 'vitest';
import { decodeUrlState } from '../../renderer/lib/url-state';
import { pdfFileName, printViewUrl, reportIdFromIpc, WAIT_FOR_PRINT_READY } from '../../main/print-pdf';
import { buildPrintUrl } from '../../contract/print-view';
import { takeKeyFromFragment } from '../../renderer/state/connection';

describe('saving a report as PDF in the desktop app', () => {
  it('accepts only a report id of the allowed length from the page', () => {
    expect(reportIdFromIpc('3f1c9a70-5b2e-4d1a-9c47-0e8a2b6d5f13')).toBe('3f1c9a70-5b2e-4d1a-9c47-0e8a2b6d5f13');
    for (const bad of [undefined, null, 42, '', 'x'.repeat(201), { id: 'x' }]) expect(() => reportIdFromIpc(bad)).toThrow(/report id/);
  });

  it('prints the print view of the service, which the renderer reads back as that view and report', () => {
    const url = printViewUrl('http://127.0.0.1:4317', 'a b/c?d');
    expect(new URL(url).origin).toBe('http://127.0.0.1:4317');
    const state = decodeUrlState(new URL(url).search);
    expect(state).toMatchObject({ view: 'print', report: 'a b/c?d' });
  });

  it('carries a key only in the fragment, where the renderer takes it from', () => {
    const url = buildPrintUrl('http://127.0.0.1:5000', 'r1', 'ldk_abc+/=');
    expect(new URL(url).search).not.toContain('ldk_');
    expect(takeKeyFromFragment(url)).toEqual({ key: 'ldk_abc+/=', cleanUrl: 'http://127.0.0.1:5000/?view=print&report=r1' });
  });

  it('names the file after the reference, without characters a file system refuses', () => {
    expect(pdfFileName('SHP-2026/0042: "A"', 'id-1')).toBe('LabelDesk SHP-2026-0042- -A-.pdf');
    expect(pdfFileName('  ', 'id-1')).toBe('LabelDesk id-1.pdf');
  });

  it('waits for the ready mark and fails on the error mark (run as page script)', async () => {
    // The script is evaluated in the page; here a minimal document stands in for it.
    const attributes: Record<string, string | null> = {};
    const fakeDocument = {
      documentElement: {},
      querySelector: (selector: string) => {
        if (selector.includes('data-print-ready') && attributes['data-print-ready'] === 'true')
          return { getAttribute: (n: string) => (n === 'data-report-reference' ? 'SHP-1' : attributes[n]) };
        if (selector.includes('data-print-error') && attributes['data-print-error']) return { getAttribute: (n: string) => attributes[n] };
        return null;
      },
    };
    let notify = () => {};
    class FakeObserver {
      constructor(callback: () => void) {
        notify = callback;
      }
      observe() {}
    }
    const run = () => new Function('document', 'MutationObserver', `return ${WAIT_FOR_PRINT_READY}`)(fakeDocument, FakeObserver) as Promise<string>;
    const ready = run();
    attributes['data-print-ready'] = 'true';
    notify();
    await expect(ready).resolves.toBe('SHP-1');
    delete attributes['data-print-ready'];
    const failed = run();
    attributes['data-print-error'] = 'This report is not there any more.';
    notify();
    await expect(failed).rejects.toThrow('This report is not there any more.');
  });
});
