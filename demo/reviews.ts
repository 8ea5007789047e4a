/**
 * Demo reviews: what staff wrote about some finished shipments (comments, an acknowledgement of
 * the alert, a release decision, sometimes revised), so the review and history of a report have
 * something to show. Derives from the seed, the report's number and its alert level only.
 */
import type { BundleReport } from '../schema/bundle';
import type { Decision } from '../schema/review';
import { Random } from './random';

export interface DemoReviewEntry {
  companyId: string;
  kind: 'comment' | 'acknowledgement' | 'decision';
  text: string | null;
  decision: Decision | null;
  at: string;
}

const HOUR = 3600;

const ARRIVAL_NOTES = [
  'Arrived at the dock, seals intact.',
  'Pallet unloaded; the label was read at goods receipt.',
  'Carrier reported a delay at the border.',
  'Cold room door was open during unloading for about 20 minutes.',
  'Driver confirmed the reefer was set to the right range.',
];
const ALERT_NOTES = [
  'Checked the excursion against the stability data.',
  'Asked the carrier for the reefer log.',
  'QA informed; product quarantined until the decision.',
];
const RELEASE_REASONS = [
  'All readings within the limits.',
  'The excursion is within the stability budget of the product.',
  'Short spike during loading; the product temperature stayed within range.',
];
const REJECT_REASONS = ['Excursion beyond the stability budget; product to be destroyed.', 'Too long above the maximum; the customer refused the goods.'];
const HOLD_REASONS = ['Waiting for the carrier’s reefer log.', 'Waiting for QA to review the stability data.'];

/**
 * The review of report `i` (already written, with `alertLevel` calculated), or none. Only
 * completed reports with readings are reviewed; the owner decides, a partner may comment.
 */
export function demoReview(seed: string, i: number, report: BundleReport, alertLevel: number): DemoReviewEntry[] {
  const rnd = new Random(`labeldesk-demo-review\0${seed}\0${i}`);
  if (report.status !== 'completed' || report.reportedSenseData.datapoints.length === 0 || !rnd.chance(0.35)) return [];
  const last = report.reportedSenseData.datapoints.at(-1)!.timestamp;
  let t = last + rnd.int(1, 12) * HOUR;
  const at = () => new Date((t += rnd.int(5, 240) * 60) * 1000).toISOString();
  const owner = report.companyId;
  const entries: DemoReviewEntry[] = [];
  const add = (kind: DemoReviewEntry['kind'], text: string | null, decision: Decision | null = null, companyId = owner) =>
    entries.push({ companyId, kind, text, decision, at: at() });

  if (rnd.chance(0.6)) add('comment', rnd.pick(ARRIVAL_NOTES));
  if (alertLevel >= 1) {
    add('acknowledgement', rnd.chance(0.5) ? rnd.pick(ALERT_NOTES) : null);
    if (rnd.chance(0.4)) add('decision', rnd.pick(HOLD_REASONS), 'onHold');
    if (alertLevel === 2 && rnd.chance(0.5)) add('decision', rnd.pick(REJECT_REASONS), 'rejected');
    else add('decision', rnd.pick(RELEASE_REASONS.slice(1)), 'released');
  } else {
    add('decision', RELEASE_REASONS[0], 'released');
  }
  const partner = report.access?.find((a) => a.role === 'editor');
  if (partner && rnd.chance(0.3)) add('comment', 'Received at our warehouse; no remarks.', null, partner.companyId);
  return entries;
}
