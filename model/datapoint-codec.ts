/**
 * Compact storage of a report's raw datapoints (up to hundreds of thousands per report).
 *
 * Layout: an 8-byte header, then one block per column (timestamps, temperatures, humidities).
 * Each column is stored either as int32 (timestamps as deltas; values in hundredths, which
 * is what real sensors report) or, when that would lose anything, as float64. Decoding
 * gives back exactly the numbers that were encoded.
 *
 * header: u8 format version, u8 flags (bit0: has humidity), u16 reserved, u32 count
 * column: u8 encoding (0 = float64, 1 = int32 scaled/delta), 7 bytes padding, then payload
 *         int32 timestamps start with a float64 base value.
 */
import type { DatapointColumns } from '../sense/timeline';

const FORMAT = 1;
const FLOAT64 = 0;
const INT32 = 1;
const HUMIDITY_ABSENT = -0x80000000; // int32 sentinel for NaN in scaled columns
const INT32_MAX = 0x7fffffff;

export function encodeDatapoints(columns: DatapointColumns): Buffer {
  const n = columns.timestamps.length;
  const parts: Buffer[] = [];
  const header = Buffer.alloc(8);
  header.writeUInt8(FORMAT, 0);
  header.writeUInt8(columns.humidities ? 1 : 0, 1);
  header.writeUInt32LE(n, 4);
  parts.push(header);
  parts.push(encodeTimestamps(columns.timestamps));
  parts.push(encodeValues(columns.temperatures));
  if (columns.humidities) parts.push(encodeValues(columns.humidities));
  return Buffer.concat(parts);
}

/** How many datapoints an encoded blob holds, read from its header alone. */
export function datapointCount(blob: Uint8Array): number {
  return new DataView(blob.buffer, blob.byteOffset, blob.byteLength).getUint32(4, true);
}

export function decodeDatapoints(blob: Uint8Array): DatapointColumns {
  // Copy once into an aligned buffer so typed-array views can be taken without copying again.
  const bytes = new Uint8Array(blob.byteLength + 8);
  bytes.set(blob);
  const view = new DataView(bytes.buffer);
  if (view.getUint8(0) !== FORMAT) throw new Error(`unknown datapoint format ${view.getUint8(0)}`);
  const hasHumidity = (view.getUint8(1) & 1) === 1;
  const n = view.getUint32(4, true);
  let offset = 8;
  const ts = readColumn(bytes, view, offset, n, 'timestamps');
  offset = ts.next;
  const temperatures = readColumn(bytes, view, offset, n, 'values');
  offset = temperatures.next;
  const humidities = hasHumidity ? readColumn(bytes, view, offset, n, 'values').values : null;
  return { timestamps: ts.values, temperatures: temperatures.values, humidities };
}

function encodeTimestamps(values: Float64Array): Buffer {
  const n = values.length;
  let fits = n > 0;
  for (let i = 1; i < n && fits; i++) {
    const d = values[i] - values[i - 1];
    fits = Number.isInteger(d) && d >= -INT32_MAX && d <= INT32_MAX;
  }
  if (!fits) return float64Column(values);
  const out = Buffer.alloc(8 + 8 + 4 * n);
  out.writeUInt8(INT32, 0);
  out.writeDoubleLE(values[0], 8);
  let prev = values[0];
  for (let i = 0; i < n; i++) {
    out.writeInt32LE(values[i] - prev, 16 + 4 * i);
    prev = values[i];
  }
  return out;
}

function encodeValues(values: Float64Array): Buffer {
  const n = values.length;
  const scaled = new Int32Array(n);
  for (let i = 0; i < n; i++) {
    const v = values[i];
    if (Number.isNaN(v)) {
      scaled[i] = HUMIDITY_ABSENT;
      continue;
    }
    const s = Math.round(v * 100);
    // Only when dividing back gives the very same double is the compact form lossless.
    if (s / 100 !== v || s <= HUMIDITY_ABSENT || s > INT32_MAX || Object.is(v, -0)) return float64Column(values);
    scaled[i] = s;
  }
  const out = Buffer.alloc(8 + 4 * n);
  out.writeUInt8(INT32, 0);
  Buffer.from(scaled.buffer, scaled.byteOffset, scaled.byteLength).copy(out, 8);
  return out;
}

function float64Column(values: Float64Array): Buffer {
  const out = Buffer.alloc(8 + 8 * values.length);
  out.writeUInt8(FLOAT64, 0);
  Buffer.from(values.buffer, values.byteOffset, values.byteLength).copy(out, 8);
  return out;
}

function readColumn(
  bytes: Uint8Array,
  view: DataView,
  offset: number,
  n: number,
  kind: 'timestamps' | 'values',
): { values: Float64Array; next: number } {
  const encoding = view.getUint8(offset);
  offset += 8;
  if (encoding === FLOAT64) {
    const values = new Float64Array(bytes.buffer.slice(offset, offset + 8 * n));
    return { values, next: offset + 8 * n };
  }
  const values = new Float64Array(n);
  if (kind === 'timestamps') {
    let t = view.getFloat64(offset, true);
    offset += 8;
    const deltas = new Int32Array(bytes.buffer, offset, n);
    for (let i = 0; i < n; i++) values[i] = t += deltas[i];
    return { values, next: offset + 4 * n };
  }
  const scaled = new Int32Array(bytes.buffer, offset, n);
  for (let i = 0; i < n; i++) values[i] = scaled[i] === HUMIDITY_ABSENT ? NaN : scaled[i] / 100;
  return { values, next: offset + 4 * n };
}
