/**
 * The reader: the first step of an import, on this thread. It feeds the bytes to the scanner,
 * decides what each top-level key of a bundle means (streamed array, the version, or a problem)
 * and queues what it finds as `ScanEvent`s for the processor. No parsing, no database.
 */
import { BundleScanner, BundleSyntaxError, keyPath, type KeyMode, type ScanHandler } from './json-scanner';
import { Utf8Check } from './utf8-check';

const ARRAY_KEYS = ['companies', 'apiKeys', 'labelReports'] as const;
export type ArrayKey = (typeof ARRAY_KEYS)[number];
const KNOWN_KEYS = new Set<string>(['version', ...ARRAY_KEYS]);

/** What the reader found, in bundle order. Plain data: it may be posted to a worker. */
export type ScanEvent =
  | { t: 'problem'; path: string; message: string }
  /** The bundle cannot be read further (its problem came just before). */
  | { t: 'fatal' }
  | { t: 'element'; key: ArrayKey; index: number; text: string; line: number }
  /** A whole top-level value; `expectedArray` when the key's value should have been an array. */
  | { t: 'whole'; key: string; text: string; line: number; expectedArray: boolean };

export class BundleReader implements ScanHandler {
  /** Set once the bytes cannot be read further; the events end with `fatal` then. */
  fatal = false;
  private events: ScanEvent[] = [];
  private readonly seenKeys = new Set<string>();
  private readonly scanner: BundleScanner;
  private readonly utf8 = new Utf8Check();

  constructor(maxElementBytes: number) {
    this.scanner = new BundleScanner(this, maxElementBytes);
  }

  push(chunk: Uint8Array): void {
    if (this.fatal) return;
    if (this.refuseBadText(this.utf8.push(chunk))) return;
    this.guard(() => this.scanner.push(chunk));
  }

  end(): void {
    if (this.fatal || this.refuseBadText(this.utf8.end())) return;
    this.guard(() => this.scanner.end());
  }

  /** Nothing after a byte that is not UTF-8 can be trusted: the bundle stops there. */
  private refuseBadText(offset: number): boolean {
    if (offset === -1) return false;
    this.events.push(
      {
        t: 'problem',
        path: '$',
        message: `the bundle is not UTF-8 text: the byte at offset ${offset} is not valid UTF-8 (was it saved as Latin-1 or Windows-1252? save it as UTF-8)`,
      },
      { t: 'fatal' },
    );
    this.fatal = true;
    return true;
  }

  /** The events since the last call. */
  take(): ScanEvent[] {
    const out = this.events;
    this.events = [];
    return out;
  }

  startKey(key: string): KeyMode {
    const path = keyPath(key);
    if (this.seenKeys.has(key)) {
      this.events.push({ t: 'problem', path, message: `"${key}" appears twice in the bundle` });
      return 'skip';
    }
    this.seenKeys.add(key);
    if (!KNOWN_KEYS.has(key)) {
      this.events.push({ t: 'problem', path, message: `unknown key "${key}": a bundle has only version, companies, apiKeys and labelReports` });
      return 'skip';
    }
    return key === 'version' ? 'whole' : 'elements';
  }

  element(key: string, index: number, text: string, line: number): void {
    this.events.push({ t: 'element', key: key as ArrayKey, index, text, line });
  }

  whole(key: string, text: string, line: number, expectedArray: boolean): void {
    this.events.push({ t: 'whole', key, text, line, expectedArray });
  }

  private guard(step: () => void): void {
    try {
      step();
    } catch (err) {
      if (!(err instanceof BundleSyntaxError)) throw err;
      this.events.push({ t: 'problem', path: err.path, message: err.message }, { t: 'fatal' });
      this.fatal = true;
    }
  }
}
