/** The shipment operations of the OpenAPI document, in their group (http/openapi-operations.ts lists them with the rest). */
import type { Tag } from './openapi-operations';

export const SHIPMENTS_TAG = {
  name: 'Shipments',
  description: 'The labels of one shipment seen, judged and released together (/local/shipments): the list, one shipment with its chart data, legs and budget, the facts the desk keeps on it, and the signed shipment decision.',
} as const;

export const SHIPMENT_OPERATIONS: Readonly<Record<string, { tag: Tag; description?: string }>> = {
  listShipments: { tag: 'Shipments', description: 'A shipment is the company’s reports of one label reference, case and spaces aside, cut where the reference was used again after 60 days (needs labelReports:read).' },
  getShipment: { tag: 'Shipments', description: 'An unknown id, or another company’s shipment, answers 404 (needs labelReports:read).' },
  getShipmentReadings: { tag: 'Shipments', description: 'Every reading of every label, untrimmed, oldest first (needs labelReports:read).' },
  getShipmentFacts: { tag: 'Shipments', description: 'Empty facts (nulls, no legs, no budget) until someone sets them (needs labelReports:read).' },
  putShipmentFacts: { tag: 'Shipments' },
  getShipmentGrouping: { tag: 'Shipments', description: 'null until the company chooses a custom field in its settings (needs labelReports:read).' },
  putShipmentGrouping: { tag: 'Shipments' },
  getShipmentOfReport: { tag: 'Shipments', description: 'A report the key does not see answers 404; one without a value to group by answers {shipment: null} (needs labelReports:read).' },
  decideShipment: { tag: 'Shipments' },
};
