/**
 * A full backup folder, made without root and without mounting anything
 * (docs/testing.md#a-full-disk): a process's file size limit (RLIMIT_FSIZE, `ulimit -f`), set
 * with util-linux's `prlimit` on a real `labeldesk` child. A write past the limit fails with
 * EFBIG (Node ignores SIGXFSZ, so the process lives on), as a write to a full disk fails with
 * ENOSPC: SQLite's backup API answers both with the same error, and the copy stops where a full
 * disk stops it. Only the soft limit is lowered, so raising it again, on the running process, is
 * the space freed.
 */
import { execFileSync } from 'node:child_process';
import { statSync } from 'node:fs';

/** The words that run `argv` under a file size limit of `bytes`. */
export function underFileSizeLimit(bytes: number, argv: readonly string[]): string[] {
  return ['prlimit', `--fsize=${bytes}:`, '--', ...argv];
}

/** Sets the running process `pid`'s file size limit to `bytes`, or lifts it (null). */
export function setFileSizeLimit(pid: number, bytes: number | null): void {
  execFileSync('prlimit', ['--pid', String(pid), `--fsize=${bytes ?? 'unlimited'}:`]);
}

/**
 * A limit the database `file` as it stands passes, by whole pages, but no copy of it fits in:
 * four pages short of its size.
 */
export function limitBelow(file: string, pageSize = 4096): number {
  return (Math.floor(statSync(file).size / pageSize) - 4) * pageSize;
}
