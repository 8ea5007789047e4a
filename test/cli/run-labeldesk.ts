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
