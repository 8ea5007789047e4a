/**
 * What a shipment is (docs/shipments.md#what-a-shipment-is): a company's reports that share a
 * label reference, compared without case and without white space, split where a reference was
 * used again long after: a report created more than SHIPMENT_GAP_DAYS after the previous one of
 * the same reference begins a new shipment. A shipment's id is the reference key and the UTC day
 * its first report was created, so an id stays the same as labels join it.
 */

/** Days between two reports of one reference (by creation) after which the second begins a new shipment. */
export const SHIPMENT_GAP_DAYS = 60;
export const SHIPMENT_GAP_SECONDS = SHIPMENT_GAP_DAYS * 86_400;

/**
 * The reference as shipments compare it: white space removed (spaces, tabs, line breaks, the
 * no-break space) and ASCII letters in upper case. SQL computes the same key
 * (db/read-model/shipments.ts), whose upper() folds ASCII only, so no other letter is folded here.
 */
export function referenceKey(reference: string): string {
  return reference.replace(/[ \t\n\r\u00a0]/g, '').replace(/[a-z]+/g, (s) => s.toUpperCase());
}

/** A shipment's id: its reference key, '@', the UTC day its first report was created. */
export function shipmentId(key: string, firstCreated: string): string {
  return `${key}@${firstCreated.slice(0, 10)}`;
}

export function parseShipmentId(id: string): { key: string; day: string } | null {
  const match = /^(.+)@(\d{4}-\d{2}-\d{2})$/s.exec(id);
  return match ? { key: match[1], day: match[2] } : null;
}

/** The reports of one reference key, in creation order, cut where the gap between two exceeds the shipment gap. */
export function splitByGap<T extends { created: string }>(reports: readonly T[], gapSeconds = SHIPMENT_GAP_SECONDS): T[][] {
  const sorted = [...reports].sort((a, b) => (a.created < b.created ? -1 : a.created > b.created ? 1 : 0));
  const pieces: T[][] = [];
  let previous = -Infinity;
  for (const report of sorted) {
    const at = Date.parse(report.created) / 1000;
    if (pieces.length === 0 || at - previous > gapSeconds) pieces.push([]);
    pieces[pieces.length - 1].push(report);
    previous = at;
  }
  return pieces;
}

export const SHIPMENT_STATES = ['awaitingAcknowledgement', 'awaitingReview', 'onHold', 'rejected', 'released'] as const;
export type ShipmentState = (typeof SHIPMENT_STATES)[number];

/** The counts a shipment's state is judged from: its labels, and their current decisions and acknowledgements. */
export interface ShipmentTally {
  labels: number;
  released: number;
  rejected: number;
  onHold: number;
  /** Labels with an alert (level 1 or 2) not acknowledged at its level since the last withdrawal. */
  unacknowledged: number;
}

/**
 * Where a shipment's review stands: a rejected label rejects it, one on hold holds it; an
 * unacknowledged alert must be acknowledged first; released when every label is; else it awaits review.
 */
export function shipmentState(t: ShipmentTally): ShipmentState {
  if (t.rejected > 0) return 'rejected';
  if (t.onHold > 0) return 'onHold';
  if (t.unacknowledged > 0) return 'awaitingAcknowledgement';
  if (t.released === t.labels) return 'released';
  return 'awaitingReview';
}

/** "41 of 120 minutes above 8 °C used": minutes used rounded up, so a part of a minute is never lost. */
export function budgetWords(usedSeconds: number, budgetMinutes: number, direction: 'above' | 'below', threshold: number, unit: string): string {
  const used = Math.ceil(usedSeconds / 60 - 1e-9);
  const over = used > budgetMinutes ? ` (${used - budgetMinutes} over)` : '';
  return `${used} of ${budgetMinutes} minutes ${direction} ${threshold} ${unit} used${over}`;
}
