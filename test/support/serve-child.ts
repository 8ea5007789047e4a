/**
 * `labeldesk serve` as a real child process of a test: started on a free port, its output kept,
 * resolved once it printed its address line.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { REPO } from '../cli/run-labeldesk';

export interface Served {
  child: ChildProcess;
  url: string;
  port: number;
  stdout: () => string;
  stderr: () => string;
  /** Resolves with standard error once it matches `pattern` (rejects when the process exits first). */
  stderrMatching: (pattern: RegExp) => Promise<string>;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/**
 * Starts `labeldesk serve --port 0 …` in `dir` (its data folder inside it) and resolves once it
 * printed its address, or rejects when it exits first; the child is added to `children`, which
 * the test kills at its end.
 */
export function serveChild(dir: string, args: string[], children: ChildProcess[]): Promise<Served> {
  const child = spawn(process.execPath, [join(REPO, 'bin/labeldesk.js'), 'serve', '--port', '0', ...args], {
    cwd: dir,
    env: { ...process.env, LABELDESK_DATA_DIR: join(dir, 'data') },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  let stdout = '';
  let stderr = '';
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.on('exit', (code, signal) => resolve({ code, signal })),
  );
  const stderrMatching = (pattern: RegExp) =>
    new Promise<string>((resolve, reject) => {
      const check = () => {
        if (!pattern.test(stderr)) return false;
        child.stderr!.off('data', check);
        resolve(stderr);
        return true;
      };
      if (check()) return;
      child.stderr!.on('data', check);
      void exited.then(() => check() || reject(new Error(`serve exited without printing ${pattern}:\n${stderr}`)));
    });
  return new Promise((resolve, reject) => {
    child.stdout!.on('data', (d) => {
      stdout += d;
      const url = /http:\/\/[^\s]+/.exec(stdout)?.[0];
      if (url && stdout.slice(stdout.indexOf(url)).includes('\n')) {
        resolve({ child, url, port: Number(new URL(url).port), stdout: () => stdout, stderr: () => stderr, stderrMatching, exited });
      }
    });
    // Registered before any caller's listener, so `stderr` holds each chunk by the time they look.
    child.stderr!.on('data', (d) => (stderr += d));
    void exited.then(({ code }) => reject(new Error(`serve exited with ${code} before listening:\n${stdout}\n${stderr}`)));
  });
}
