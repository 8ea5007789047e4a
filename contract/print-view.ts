/**
 * The print view's address: one report laid out for A4, `/?view=print&report=<id>`. The desktop
 * app, the command line and the renderer build and read it the same way. A key, where the page
 * needs one, travels in the `#key=` fragment, which is never sent to the server.
 */
export const PRINT_VIEW = 'print';

/** The print view of `reportId` at `origin` (`http://127.0.0.1:4317`), with an optional key fragment. */
export function buildPrintUrl(origin: string, reportId: string, apiKey?: string): string {
  const url = new URL('/', origin);
  url.searchParams.set('view', PRINT_VIEW);
  url.searchParams.set('report', reportId);
  if (apiKey !== undefined) url.hash = `key=${encodeURIComponent(apiKey)}`;
  return url.toString();
}

/** The attribute the print view sets to "true" once the report is loaded and its chart drawn. */
export const PRINT_READY_ATTRIBUTE = 'data-print-ready';
/** The attribute the print view sets, once ready, to the checksum of the certificate it shows. */
export const PRINT_CERTIFICATE_ATTRIBUTE = 'data-print-certificate';
/** The attribute the print view sets, with the reason in words, when the report cannot be shown. */
export const PRINT_ERROR_ATTRIBUTE = 'data-print-error';

/** Where the UI keeps its choice of time zone (localStorage); the command line sets it for a UTC printout. */
export const TIME_ZONE_STORAGE_KEY = 'labeldesk.timeZone';
