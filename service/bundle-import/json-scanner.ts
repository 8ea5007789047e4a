/**
 * The byte scanner: splits the bundle's top-level object into keys and values, and streamed
 * arrays into elements, without parsing the elements themselves. It checks the structure it
 * walks (braces, brackets, commas, colons, strings) and leaves each element's own grammar to
 * JSON.parse, which is several times faster than any tokenizer written in JavaScript.
 *
 * It knows nothing about bundles beyond "an object of keys"; what to do with each key is up to
 * its `ScanHandler` (the `BundleReader`).
 */

/** A problem that stops reading: the bytes no longer say where the next value starts. */
export class BundleSyntaxError extends Error {
  constructor(
    readonly path: string,
    message: string,
  ) {
    super(message);
  }
}

/** What to do with a top-level key's value: split an array into elements, keep it whole, or skip it. */
export type KeyMode = 'elements' | 'whole' | 'skip';

export interface ScanHandler {
  startKey(key: string): KeyMode;
  element(key: string, index: number, text: string, line: number): void;
  /** A whole top-level value; `expectedArray` when the key streams elements but its value is no array. */
  whole(key: string, text: string, line: number, expectedArray: boolean): void;
}

/** The JSON path of a top-level key: `$.labelReports`, or `$["odd key"]`. */
export function keyPath(key: string): string {
  return /^[A-Za-z_$][A-Za-z0-9_$]*$/.test(key) ? `$.${key}` : `$[${JSON.stringify(key)}]`;
}

const MAX_DEPTH = 512;

const enum S {
  RootStart,
  KeyOrClose,
  Key,
  InKey,
  Colon,
  Value,
  ElemOrClose,
  Elem,
  Capture,
  AfterValue,
  Done,
}

const enum C {
  Quote = 0x22,
  Backslash = 0x5c,
  Comma = 0x2c,
  Colon = 0x3a,
  OpenBrace = 0x7b,
  CloseBrace = 0x7d,
  OpenBracket = 0x5b,
  CloseBracket = 0x5d,
  Newline = 0x0a,
  Space = 0x20,
  Tab = 0x09,
  Return = 0x0d,
}

/** Byte classes for the capture loop: 0 for every byte that changes nothing. */
const enum K {
  None,
  Quote,
  Backslash,
  Open,
  Close,
  Comma,
  Newline,
}
const OUTSIDE = new Uint8Array(256);
OUTSIDE[C.Quote] = K.Quote;
OUTSIDE[C.OpenBrace] = K.Open;
OUTSIDE[C.OpenBracket] = K.Open;
OUTSIDE[C.CloseBrace] = K.Close;
OUTSIDE[C.CloseBracket] = K.Close;
OUTSIDE[C.Comma] = K.Comma;
OUTSIDE[C.Newline] = K.Newline;
const IN_STRING = new Uint8Array(256);
IN_STRING[C.Quote] = K.Quote;
IN_STRING[C.Backslash] = K.Backslash;
IN_STRING[C.Newline] = K.Newline;

const UTF8_BOM = [0xef, 0xbb, 0xbf];

function isWhitespace(c: number): boolean {
  return c === C.Space || c === C.Newline || c === C.Return || c === C.Tab;
}

/** What the current capture is: an element, a whole top-level value, or a value to skip. */
type CaptureKind = 'element' | 'whole' | 'skip';

export class BundleScanner {
  private state = S.RootStart;
  private line = 1;
  /** Bytes of a byte order mark seen at the start; 3 once past it. */
  private bomBytes = 0;
  private key = '';
  private keyMode: KeyMode = 'skip';
  /** Within the current streamed array: index of the element being read. */
  private index = 0;
  private captureKind: CaptureKind = 'skip';
  private expectedArray = false;
  private captureLine = 1;
  private pieces: Buffer[] = [];
  private captureBytes = 0;
  /** Where the value (or key) being read starts in the current chunk. */
  private captureStart = 0;
  private readonly stack = new Uint8Array(MAX_DEPTH);
  private depth = 0;
  private inString = false;
  private escaped = false;
  private keyPieces: Buffer[] = [];

  constructor(
    private readonly handler: ScanHandler,
    private readonly maxElementBytes: number,
  ) {}

  push(chunk: Uint8Array): void {
    const buf = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
    const n = buf.length;
    let i = 0;
    // A UTF-8 byte order mark may open the file, even split across chunks.
    while (this.bomBytes < 3 && i < n && buf[i] === UTF8_BOM[this.bomBytes]) {
      this.bomBytes++;
      i++;
    }
    if (i < n) this.bomBytes = 3;
    this.captureStart = i;
    while (i < n) {
      if (this.state === S.Capture) {
        i = this.capture(buf, i, n);
        continue;
      }
      if (this.state === S.InKey) {
        i = this.readKey(buf, i, n);
        continue;
      }
      const c = buf[i];
      if (c === C.Newline) this.line++;
      if (isWhitespace(c)) {
        i++;
        continue;
      }
      switch (this.state) {
        case S.RootStart:
          if (c !== C.OpenBrace) this.fail('$', `a bundle is a JSON object starting with "{", found ${describeByte(c)}`);
          this.state = S.KeyOrClose;
          break;
        case S.KeyOrClose:
        case S.Key:
          if (c === C.CloseBrace && this.state === S.KeyOrClose) {
            this.state = S.Done;
            break;
          }
          if (c !== C.Quote) this.fail('$', `expected a key in double quotes, found ${describeByte(c)}`);
          this.state = S.InKey;
          this.keyPieces = [Buffer.from('"')];
          this.escaped = false;
          this.captureStart = i + 1;
          break;
        case S.Colon:
          if (c !== C.Colon) this.fail(keyPath(this.key), `expected ":" after the key, found ${describeByte(c)}`);
          this.state = S.Value;
          break;
        case S.Value:
          if (this.keyMode === 'elements' && c === C.OpenBracket) {
            this.state = S.ElemOrClose;
            this.index = 0;
            break;
          }
          this.beginCapture(this.keyMode === 'skip' ? 'skip' : 'whole', i, this.keyMode === 'elements');
          continue; // the capture reads this byte again
        case S.ElemOrClose:
        case S.Elem:
          if (c === C.CloseBracket && this.state === S.ElemOrClose) {
            this.state = S.AfterValue;
            break;
          }
          if (c === C.CloseBracket || c === C.Comma) {
            this.fail(`${keyPath(this.key)}[${this.index}]`, `expected a value, found ${describeByte(c)} (line ${this.line})`);
          }
          this.beginCapture('element', i, false);
          continue;
        case S.AfterValue:
          if (c === C.Comma) this.state = S.Key;
          else if (c === C.CloseBrace) this.state = S.Done;
          else this.fail(keyPath(this.key), `expected "," or "}" after the value, found ${describeByte(c)} (line ${this.line})`);
          break;
        case S.Done:
          this.fail('$', `unexpected ${describeByte(c)} after the end of the bundle (line ${this.line})`);
      }
      i++;
    }
    // Keep what is being captured across the chunk boundary.
    if (this.state === S.Capture && this.captureKind !== 'skip') this.keepPiece(buf.subarray(this.captureStart, n));
    else if (this.state === S.InKey) this.keyPieces.push(Buffer.from(buf.subarray(this.captureStart, n)));
  }

  end(): void {
    if (this.state === S.Done) return;
    const where = this.state === S.Capture && this.captureKind === 'element' ? `${keyPath(this.key)}[${this.index}]` : '$';
    this.fail(where, this.state === S.RootStart ? 'the bundle is empty' : `the bundle ends early (line ${this.line}): it is cut off or not closed`);
  }

  private beginCapture(kind: CaptureKind, i: number, expectedArray: boolean): void {
    this.state = S.Capture;
    this.captureKind = kind;
    this.expectedArray = expectedArray;
    this.captureLine = this.line;
    this.captureStart = i;
    this.pieces = [];
    this.captureBytes = 0;
    this.depth = 0;
    this.inString = false;
    this.escaped = false;
  }

  /** Reads captured bytes up to the value's end; returns where scanning continues. */
  private capture(buf: Buffer, i: number, n: number): number {
    const stack = this.stack;
    let depth = this.depth;
    let inString = this.inString;
    let line = this.line;
    // The terminator of this value: "]" or "," in an array, "}" or "," at the top level.
    const closer = this.captureKind === 'element' ? C.CloseBracket : C.CloseBrace;
    if (this.escaped && i < n) {
      // The previous chunk ended with a backslash inside a string: this byte is escaped.
      this.escaped = false;
      i++;
    }
    for (; i < n; i++) {
      const c = buf[i];
      if (inString) {
        const k = IN_STRING[c];
        if (k === 0) continue;
        if (k === K.Quote) inString = false;
        else if (k === K.Backslash) {
          if (i + 1 < n) i++;
          else this.escaped = true;
        } else line++;
        continue;
      }
      const k = OUTSIDE[c];
      if (k === 0) continue;
      switch (k) {
        case K.Quote:
          inString = true;
          break;
        case K.Open:
          if (depth >= MAX_DEPTH) this.fail(this.capturePath(), `values are nested deeper than ${MAX_DEPTH} levels`);
          stack[depth++] = c === C.OpenBrace ? C.CloseBrace : C.CloseBracket;
          break;
        case K.Close:
          if (depth === 0) {
            if (c !== closer) this.fail(this.capturePath(), `unexpected ${describeByte(c)} (line ${line})`);
            this.line = line;
            this.finishCapture(buf, i, true);
            return i + 1;
          }
          if (stack[--depth] !== c) this.fail(this.capturePath(), `unexpected ${describeByte(c)} (line ${line})`);
          break;
        case K.Comma:
          if (depth === 0) {
            this.line = line;
            this.finishCapture(buf, i, false);
            return i + 1;
          }
          break;
        case K.Newline:
          line++;
          break;
      }
    }
    this.depth = depth;
    this.inString = inString;
    this.line = line;
    return i;
  }

  /** The value ended at `buf[end]`, a "," or the closing bracket/brace of its container. */
  private finishCapture(buf: Buffer, end: number, closed: boolean): void {
    const kind = this.captureKind;
    if (kind !== 'skip') {
      const last = buf.subarray(this.captureStart, end);
      let text: string;
      if (this.pieces.length === 0) {
        text = last.toString('utf8');
      } else {
        this.countBytes(last.length);
        this.pieces.push(last);
        text = Buffer.concat(this.pieces).toString('utf8');
        this.pieces = [];
      }
      if (text.trim() === '') this.fail(this.capturePath(), `expected a value (line ${this.line})`);
      if (kind === 'element') this.handler.element(this.key, this.index, text, this.captureLine);
      else this.handler.whole(this.key, text, this.captureLine, this.expectedArray);
    }
    if (kind === 'element') {
      this.index++;
      this.state = closed ? S.AfterValue : S.Elem;
    } else {
      // A top-level value ended with "}" (end of bundle) or "," (next key).
      this.state = closed ? S.Done : S.Key;
    }
  }

  /** Keeps the part of a value that ends a chunk; copied, as the chunk's memory belongs to the stream. */
  private keepPiece(piece: Buffer): void {
    if (piece.length === 0) return;
    this.countBytes(piece.length);
    this.pieces.push(Buffer.from(piece));
  }

  private countBytes(n: number): void {
    this.captureBytes += n;
    if (this.captureBytes > this.maxElementBytes) {
      this.fail(this.capturePath(), `this value is larger than ${Math.round(this.maxElementBytes / 1048576)} MiB`);
    }
  }

  private readKey(buf: Buffer, i: number, n: number): number {
    for (; i < n; i++) {
      const c = buf[i];
      if (this.escaped) {
        this.escaped = false;
      } else if (c === C.Backslash) {
        this.escaped = true;
      } else if (c === C.Quote) {
        this.keyPieces.push(Buffer.from(buf.subarray(this.captureStart, i + 1)));
        const raw = Buffer.concat(this.keyPieces).toString('utf8');
        this.keyPieces = [];
        try {
          this.key = JSON.parse(raw) as string;
        } catch {
          this.fail('$', `invalid key ${raw.slice(0, 80)} (line ${this.line})`);
        }
        this.keyMode = this.handler.startKey(this.key);
        this.state = S.Colon;
        return i + 1;
      } else if (c === C.Newline) {
        this.fail('$', `a key runs past the end of its line (line ${this.line})`);
      }
    }
    return i;
  }

  private capturePath(): string {
    return this.captureKind === 'element' ? `${keyPath(this.key)}[${this.index}]` : keyPath(this.key);
  }

  private fail(path: string, message: string): never {
    throw new BundleSyntaxError(path, `invalid JSON: ${message}`);
  }
}

function describeByte(c: number): string {
  if (c >= 0x20 && c < 0x7f) return `"${String.fromCharCode(c)}"`;
  return `byte 0x${c.toString(16).padStart(2, '0')}`;
}
