/** Runs the real `labeldesk` command in a child process, its data folder inside `cwd`. */
import { spawn, type SpawnOptions } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const REPO = fileURLToPath(new URL('../../', import.meta.url));

export interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs `command` to its end, with its whole output. */
export function runToEnd(command: string, args: string[], options: SpawnOptions): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { ...options, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout!.on('data', (d) => (stdout += d));
    child.stderr!.on('data', (d) => (stderr += d));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

export function runLabeldesk(cwd: string, args: string[], env: Record<string, string> = {}): Promise<Run> {
  return runToEnd(process.execPath, [join(REPO, 'bin/labeldesk.js'), ...args], {
    cwd,
    env: { ...process.env, LABELDESK_DATA_DIR: join(cwd, 'data'), ...env },
  });
}

/**
 * Runs `labeldesk ARGS` in this process: the command line's own entry (cli/main.ts) with its
 * output captured, as the binary would print it, for a test about what a command does and says
 * rather than about the process (its start, signals, exit). It saves a Node start and the
 * command's imports per run. Every command family keeps a test that runs the real binary.
 * The command must name its database (`--db`), as the data folder is the process's own.
 */
export async function runLabeldeskInProcess(args: string[]): Promise<Run & { code: number }> {
  if (!args.includes('--db')) throw new Error(`runLabeldeskInProcess needs --db: ${args.join(' ')}`);
  // Imported here: the files that only spawn the binary need none of the command line's modules.
  const [{ main }, { PassThrough }, { finished }] = await Promise.all([import('../../cli/main'), import('node:stream'), import('node:stream/promises')]);
  const out = new PassThrough({ encoding: 'utf8' });
  const err = new PassThrough({ encoding: 'utf8' });
  let stdout = '';
  let stderr = '';
  out.on('data', (text: string) => (stdout += text));
  err.on('data', (text: string) => (stderr += text));
  const code = await main(args, { out, err });
  out.end();
  err.end();
  await Promise.all([finished(out), finished(err)]);
  return { code, stdout, stderr };
}
