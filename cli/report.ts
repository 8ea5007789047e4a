/**
 * `labeldesk report --db FILE --id ID (--pdf out.pdf | --csv out.csv)`: one report handed on.
 *
 * The PDF is the app's own print view, rendered by Chromium: the service starts in this process
 * on 127.0.0.1 (a free port, no webhook delivery), a session key that lives only in memory is
 * made for the report's owner, Chromium (playwright-core, never a downloaded browser) opens the
 * print view with it, waits until the view says it is ready, and prints A4. The CSV is the
 * readings, written straight from the database. Each file written is recorded in the report's
 * access entries (docs/review-and-audit.md#who-saw-a-report) as the command line's export.
 */
import { createWriteStream, existsSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { hostname, userInfo } from 'node:os';
import path from 'node:path';
import { finished } from 'node:stream/promises';
import type { Browser } from 'playwright-core';
import { buildPrintUrl, PRINT_CERTIFICATE_ATTRIBUTE, PRINT_ERROR_ATTRIBUTE, PRINT_READY_ATTRIBUTE, TIME_ZONE_STORAGE_KEY } from '../contract/print-view';
import { DEFAULT_STATIC_DIR } from '../host/start-service';
import { NotFoundError } from '../model/errors';
import type { Caller } from '../service/api-keys';
import { COMMAND_LINE_KEY_ID } from '../service/report-access';
import { CertificateMovedError } from '../service/release-certificate';
import type { Service } from '../host/open-service';
import { serviceApp } from '../host/service-app';
import { CliError, databaseFile, EXIT_OK, openCliService, parseCommandArgs, UsageError, write, type Command, type Io } from './args';

const USAGE = 'labeldesk report [--db FILE] --id ID (--pdf OUT.pdf | --csv OUT.csv) [--ui DIR] [--utc]';

/** Where Chromium is looked for unless CHROMIUM_PATH says otherwise (Debian's `chromium` package). */
export const DEFAULT_CHROMIUM = '/usr/bin/chromium';
/** How long the print view may take to load and draw before the command gives up. */
const READY_TIMEOUT_MS = 60_000;

export const reportCommand: Command = {
  name: 'report',
  summary: "write one report's PDF (its print view) or its readings as CSV",
  usage: USAGE,
  help: `usage: ${USAGE}

Writes the report's release certificate as an A4 PDF (the app's print view: header, chart,
figures, limits and alert status, excursions, trim, custom fields, the e-signatures with their
meaning, the owner's review and comments, the history, and on every page the certificate's
SHA-256 checksum, recorded in the access chain; labeldesk audit certificate checks it) or its
readings as CSV (timestamp in ISO 8601 UTC, temperature, humidity, inTrimmedRange, then each
reading's verdict against the limits, in or out, and the report's reference, units and limits).

options:
  --db FILE     the database (default: the per-user data folder)
  --id ID       the report
  --pdf FILE    write the PDF here
  --csv FILE    write the readings CSV here
  --ui DIR      the built UI (default: dist/renderer of this checkout; npm run build:renderer)
  --utc         times in the PDF in UTC (default: this computer's time zone)

The PDF needs Chromium: ${DEFAULT_CHROMIUM}, or the program CHROMIUM_PATH names.

examples:
  labeldesk report --db labeldesk.db --id 3f1c9a70-5b2e-4d1a-9c47-0e8a2b6d5f13 --pdf shipment.pdf
  labeldesk report --db labeldesk.db --id 3f1c9a70-5b2e-4d1a-9c47-0e8a2b6d5f13 --csv readings.csv
`,
  async run(argv: string[], io: Io): Promise<number> {
    const { values } = parseCommandArgs(
      argv,
      {
        db: { type: 'string' },
        id: { type: 'string' },
        pdf: { type: 'string' },
        csv: { type: 'string' },
        ui: { type: 'string' },
        utc: { type: 'boolean' },
      },
      false,
    );
    if (!values.id) throw new UsageError('which report? give its id with --id');
    if ((values.pdf === undefined) === (values.csv === undefined)) throw new UsageError('give one of --pdf FILE or --csv FILE');
    const out = path.resolve((values.pdf ?? values.csv) as string);
    if (!existsSync(path.dirname(out))) throw new CliError(`cannot write ${out}: the folder ${path.dirname(out)} does not exist`);

    const dbFile = databaseFile(values.db);
    if (values.pdf !== undefined) {
      const uiDir = path.resolve(values.ui ?? DEFAULT_STATIC_DIR);
      const chromium = chromiumPath();
      // Checked before the database is opened: nothing starts that cannot finish.
      if (!existsSync(path.join(uiDir, 'index.html'))) {
        throw new CliError(`the UI is not built: ${path.join(uiDir, 'index.html')} is missing (run npm run build:renderer, or give --ui DIR)`);
      }
      const service = openCliService(dbFile, 'existing');
      try {
        const owner = ownerOf(service, values.id, dbFile);
        const { pdf, checksum } = await certificatePdf({ service, uiDir, chromium, reportId: values.id, companyId: owner, utc: values.utc === true });
        let issued;
        try {
          issued = service.certificates.issueByCommandLine(values.id, owner, ranBy(), checksum);
        } catch (err) {
          if (err instanceof CertificateMovedError) throw new CliError(err.message);
          throw err;
        }
        await writeFile(out, pdf);
        service.access.exportedByCommandLine(values.id, 'pdf', ranBy());
        write(io.out, `release certificate ${issued.checksum} issued (access entry ${issued.entry}); labeldesk audit certificate checks it`);
      } finally {
        service.close();
      }
    } else {
      const service = openCliService(dbFile, 'existing');
      try {
        const owner = ownerOf(service, values.id, dbFile);
        await writeLines(out, service.csv.readings(reader(owner), values.id, 'full'));
        service.access.exportedByCommandLine(values.id, 'readingsCsv', ranBy());
      } finally {
        service.close();
      }
    }
    write(io.out, `wrote ${out}`);
    return EXIT_OK;
  },
};

/** A caller that may only read, as the given company: for the command's own reads. */
function reader(companyId: string): Caller {
  return { keyId: 'session', companyId, permissions: new Set(['labelReports:read']) };
}

/** Who ran the command, as far as it can tell: the account and the computer. */
function ranBy(): string {
  let account: string;
  try {
    account = userInfo().username;
  } catch {
    // An account without a name (a container's user missing from /etc/passwd).
    account = `uid ${process.getuid?.() ?? 'unknown'}`;
  }
  return `labeldesk report, run by ${account} on ${hostname()}`;
}

/** The company that owns the report: the one whose view the PDF shows. */
export function ownerOf(service: Service, reportId: string, dbFile: string): string {
  for (const company of service.companies.all()) {
    try {
      return service.reports.retrieve(reader(company.id), reportId).company.id;
    } catch (err) {
      if (!(err instanceof NotFoundError)) throw err;
    }
  }
  throw new CliError(`there is no report '${reportId}' in ${dbFile}`);
}

export function chromiumPath(): string {
  const wanted = process.env.CHROMIUM_PATH || DEFAULT_CHROMIUM;
  if (!existsSync(wanted)) {
    throw new CliError(
      `Chromium was not found at ${wanted}: the PDF is printed by Chromium. Install it (Debian: apt-get install chromium) ` +
        'or name it with CHROMIUM_PATH=/path/to/chromium.',
    );
  }
  return wanted;
}

export async function launchChromium(executablePath: string): Promise<Browser> {
  // Loaded here, so the other commands never load the browser driver.
  const { chromium } = await import('playwright-core');
  try {
    return await chromium.launch({ executablePath, args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--no-first-run'] });
  } catch (err) {
    throw new CliError(`Chromium at ${executablePath} did not start: ${(err as Error).message.split('\n')[0]}`);
  }
}

export interface PdfOptions {
  service: Service;
  uiDir: string;
  chromium: string;
  reportId: string;
  /** The company whose view is printed (its review, flags and comments). */
  companyId: string;
  utc?: boolean;
  /** A browser already running (the benchmark keeps one); otherwise one is started and closed. */
  browser?: Browser;
}

/**
 * The report's print view as A4 PDF bytes. The service listens on 127.0.0.1 only while this runs;
 * the session key exists only in this process's memory and only for this company.
 */
export async function reportPdf(options: PdfOptions): Promise<Buffer> {
  return (await certificatePdf(options)).pdf;
}

/** The PDF, and the checksum of the release certificate it carries, as the print view issued it. */
export async function certificatePdf(options: PdfOptions): Promise<{ pdf: Buffer; checksum: string }> {
  const { app } = serviceApp(options.service, { staticDir: options.uiDir, logError: () => {} });
  await app.listen({ host: '127.0.0.1', port: 0 });
  const browser = options.browser ?? (await launchChromium(options.chromium));
  try {
    const address = app.server.address();
    const port = typeof address === 'object' && address ? address.port : 0;
    // The command records its export itself: the print view's reads are not views of their own.
    const key = options.service.apiKeys.createSessionKey(options.companyId, ['labelReports:read'], COMMAND_LINE_KEY_ID);
    const context = await browser.newContext({ viewport: { width: 1000, height: 1400 } });
    try {
      const page = await context.newPage();
      if (options.utc) await page.addInitScript(([key]) => localStorage.setItem(key, 'utc'), [TIME_ZONE_STORAGE_KEY]);
      await page.goto(buildPrintUrl(`http://127.0.0.1:${port}`, options.reportId, key));
      const done = await page.waitForSelector(`[${PRINT_READY_ATTRIBUTE}="true"], [${PRINT_ERROR_ATTRIBUTE}]`, { timeout: READY_TIMEOUT_MS });
      const problem = await done.getAttribute(PRINT_ERROR_ATTRIBUTE);
      if (problem) throw new CliError(`the print view could not show the report: ${problem}`);
      const checksum = (await done.getAttribute(PRINT_CERTIFICATE_ATTRIBUTE)) ?? '';
      return { pdf: await page.pdf({ format: 'A4', printBackground: true, preferCSSPageSize: true }), checksum };
    } finally {
      await context.close();
    }
  } finally {
    if (!options.browser) await browser.close();
    await app.close();
  }
}

async function writeLines(file: string, chunks: Iterable<string>): Promise<void> {
  const stream = createWriteStream(file);
  for (const chunk of chunks) if (!stream.write(chunk)) await new Promise<void>((resolve) => stream.once('drain', () => resolve()));
  stream.end();
  await finished(stream);
}
