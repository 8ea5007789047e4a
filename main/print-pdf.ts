/**
 * Saving a report as PDF in the desktop app, as pure decisions: which argument the page may send,
 * which page is printed, how the file is named, the A4 settings and how readiness is awaited. The
 * Electron calls (a hidden window, printToPDF, the save dialog) are wired in main.ts.
 */
import { buildPrintUrl, PRINT_ERROR_ATTRIBUTE, PRINT_READY_ATTRIBUTE } from '../contract/print-view';

/** The longest report id the service accepts (decisions: a report id has at most 200 characters). */
const MAX_REPORT_ID = 200;

/** The report id the page asked for; anything else is refused before a window opens. */
export function reportIdFromIpc(arg: unknown): string {
  if (typeof arg !== 'string' || arg.length === 0 || arg.length > MAX_REPORT_ID) {
    throw new Error('labeldesk:save-pdf refused: the report id must be text of 1 to 200 characters');
  }
  return arg;
}

/** The print view of one report on the service's own origin (the window gets its key from the bridge). */
export function printViewUrl(serviceOrigin: string, reportId: string): string {
  return buildPrintUrl(serviceOrigin, reportId);
}

/** "LabelDesk SHP-2026-0042.pdf": the reference when there is one, else the id; no path characters. */
export function pdfFileName(reference: string, reportId: string): string {
  const base = (reference.trim() || reportId).replace(/[\\/:*?"<>|\u0000-\u001f]+/g, '-').slice(0, 120);
  return `LabelDesk ${base}.pdf`;
}

/** Electron's printToPDF options: A4 portrait, the page's own colours (alert colours, shading). */
export const PDF_OPTIONS = { pageSize: 'A4', printBackground: true, preferCSSPageSize: true } as const;

/**
 * Run in the hidden print window: resolves with the report's reference once the print view has
 * set data-print-ready="true" (everything loaded, chart drawn), or rejects with what it shows
 * instead (the report is missing, the key refused).
 */
export const WAIT_FOR_PRINT_READY = `new Promise((resolve, reject) => {
  const check = () => {
    const ready = document.querySelector('[${PRINT_READY_ATTRIBUTE}="true"]');
    if (ready) return resolve(ready.getAttribute('data-report-reference') || '');
    const failed = document.querySelector('[${PRINT_ERROR_ATTRIBUTE}]');
    if (failed) return reject(new Error(failed.getAttribute('${PRINT_ERROR_ATTRIBUTE}') || 'the report could not be shown'));
  };
  new MutationObserver(check).observe(document.documentElement, { subtree: true, attributes: true, childList: true });
  check();
})`;
