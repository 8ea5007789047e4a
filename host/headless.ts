/**
 * LabelDesk without Electron: the same service and UI, opened in the user's browser. Started by
 * `npm start` (scripts/start.js) when the Electron binary is missing, or directly with
 * `node --import tsx host/headless.ts [--port N] [--db FILE] [--no-demo]`.
 */
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { defaultDatabaseFile } from './data-folder';
import { startDesktopService, type DesktopService } from './desktop-service';

export interface HeadlessOptions {
  dbFile: string;
  port?: number;
  demoIfEmpty: boolean;
  staticDir?: string;
}

/** `--port N` (or LABELDESK_PORT), `--db FILE`, `--no-demo`. */
export function parseHeadlessArgs(argv: readonly string[], env: Record<string, string | undefined> = process.env): HeadlessOptions {
  let port: number | undefined;
  let dbFile: string | undefined;
  let demoIfEmpty = true;
  const portText = (text: string | undefined): number => {
    const n = Number(text);
    if (text === undefined || text === '' || !Number.isInteger(n) || n < 0 || n > 65535) {
      throw new Error(`the port must be a number from 0 to 65535, not '${text ?? ''}'`);
    }
    return n;
  };
  if (env.LABELDESK_PORT !== undefined && env.LABELDESK_PORT !== '') port = portText(env.LABELDESK_PORT);
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === '--port') port = portText(argv[++i]);
    else if (arg.startsWith('--port=')) port = portText(arg.slice('--port='.length));
    else if (arg === '--db') dbFile = argv[++i];
    else if (arg.startsWith('--db=')) dbFile = arg.slice('--db='.length);
    else if (arg === '--no-demo') demoIfEmpty = false;
    else if (arg === '--headless') continue;
    else throw new Error(`unknown option '${arg}' (known: --port N, --db FILE, --no-demo)`);
  }
  if (dbFile === '') throw new Error('--db needs a file name');
  return { dbFile: path.resolve(dbFile ?? defaultDatabaseFile({ env })), port, demoIfEmpty };
}

export function runningLines(service: DesktopService, dbFile: string): string[] {
  const lines: string[] = [];
  if (service.demo) {
    lines.push(`The database was empty, so it now holds demo data (${service.demo.reports} label reports).`);
    // Each install has its own demo keys; this is the only time they are shown.
    if (service.demo.keys.length > 0) lines.push('Demo API keys for local tools (shown only now):');
    for (const k of service.demo.keys) lines.push(`  ${k.key}  ${k.name ?? k.companyId}`);
  }
  if (service.sessionKey !== null) {
    lines.push(`LabelDesk is running: open ${service.url}/#key=${encodeURIComponent(service.sessionKey)}`);
  } else {
    lines.push(`LabelDesk is running: open ${service.url}/`, service.message ?? '');
  }
  if (!service.running.service.users.anyUser()) lines.push(...firstAdminLines(dbFile, service.companyId));
  lines.push(
    `Local API base URL (for local tools, with an API key in the x-api-key header): ${service.url}`,
    `Database: ${dbFile}`,
    'Press Ctrl-C to stop.',
  );
  return lines;
}

/** How to make the first administrator, for a database nobody signs in to yet. */
export function firstAdminLines(dbFile: string, companyId: string | null): string[] {
  return [
    'Nobody signs in yet: the page asks for the first administrator, or make one with',
    `  labeldesk users create --db ${JSON.stringify(dbFile)} --company ${companyId ?? 'COMPANY'} --login LOGIN --name "PRINTED NAME" --role admin --password-file -`,
  ];
}

/** Starts the service and keeps it until SIGINT/SIGTERM; then closes cleanly and exits 0. */
export async function main(argv: readonly string[]): Promise<void> {
  let options: HeadlessOptions;
  try {
    options = parseHeadlessArgs(argv);
  } catch (err) {
    console.error(`labeldesk: ${(err as Error).message}`);
    process.exit(2);
  }
  let service: DesktopService;
  try {
    service = await startDesktopService({
      dbFile: options.dbFile,
      port: options.port,
      // An explicit port is a promise to the caller: do not quietly move elsewhere.
      strictPort: options.port !== undefined,
      demoIfEmpty: options.demoIfEmpty,
      staticDir: options.staticDir,
    });
  } catch (err) {
    console.error(`LabelDesk could not start: ${(err as Error).message}`);
    process.exit(1);
  }
  for (const line of runningLines(service, options.dbFile)) console.log(line);

  let closing = false;
  const shutdown = (signal: string) => {
    if (closing) return;
    closing = true;
    console.log(`\n${signal}: stopping LabelDesk…`);
    service.close().then(
      () => {
        console.log('LabelDesk stopped.');
        process.exit(0);
      },
      (err: unknown) => {
        console.error('LabelDesk did not stop cleanly:', err);
        process.exit(1);
      },
    );
  };
  process.on('SIGINT', () => shutdown('SIGINT'));
  process.on('SIGTERM', () => shutdown('SIGTERM'));
}

if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) {
  void main(process.argv.slice(2));
}
