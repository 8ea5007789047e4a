/**
 * What the backup and restore tests share: `labeldesk serve` as a real child process on a file,
 * stopped by SIGTERM, and JSON calls to it with a key or a person's session token.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { REPO } from './run-labeldesk';

export interface Served {
  child: ChildProcess;
  url: string;
  stderr: () => string;
  /** SIGTERM, then resolves with the exit code once the process ended. */
  stop(): Promise<number | null>;
}

/**
 * Starts `labeldesk serve --db FILE --port 0`; resolves once it printed its address. `wrap`
 * turns the command's words into those that start it (a file size limit, test/support/file-size-limit.ts).
 */
export function serveFile(dbFile: string, env: Record<string, string> = {}, wrap: (argv: string[]) => string[] = (argv) => argv): Promise<Served> {
  const [command, ...args] = wrap([process.execPath, join(REPO, 'bin/labeldesk.js'), 'serve', '--db', dbFile, '--port', '0']);
  const child = spawn(command, args, {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stderr!.on('data', (d) => (stderr += d));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return new Promise((resolve, reject) => {
    child.stdout!.on('data', (d) => {
      stdout += d;
      const url = /listening on (http:\/\/\S+)/.exec(stdout)?.[1];
      if (url) {
        resolve({
          child,
          url,
          stderr: () => stderr,
          stop: () => {
            if (child.exitCode === null) child.kill('SIGTERM');
            return exited;
          },
        });
      }
    });
    void exited.then((code) => reject(new Error(`serve exited (${code}) before listening:\n${stderr}`)));
  });
}

export interface Answer {
  status: number;
  body: any;
}

/** One JSON call; `key` is an API key or a session token. */
export async function call(url: string, path: string, key: string | null, init: { method?: string; body?: unknown; headers?: Record<string, string> } = {}): Promise<Answer> {
  const headers: Record<string, string> = { ...(init.headers ?? {}) };
  if (key !== null) headers['x-api-key'] = key;
  if (init.body !== undefined) headers['content-type'] = 'application/json';
  const res = await fetch(url + path, { method: init.method ?? 'GET', headers, body: init.body === undefined ? undefined : JSON.stringify(init.body) });
  const text = await res.text();
  let body: unknown = text;
  try {
    body = JSON.parse(text);
  } catch {
    // Not JSON (CSV): the text.
  }
  return { status: res.status, body };
}

/** The acme key that may manage keys, from `labeldesk demo`'s table. */
export function acmeManagerKey(demoOut: string): string {
  const line = demoOut.split('\n').find((l) => l.startsWith('acme ') && l.includes('apiKeys:manage'));
  return /ldk_[A-Za-z0-9_-]{43}/.exec(line ?? '')![0];
}
