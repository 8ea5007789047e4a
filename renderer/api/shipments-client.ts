/** /local/shipments, typed: every answer checked against schema/shipment.ts, on the API client's one request path. */
import { decisionBodySchema, type DecisionBody } from '../../schema/review';
import {
  shipmentDecisionSchema,
  shipmentFactsBodySchema,
  shipmentFactsSchema,
  shipmentGroupingSchema,
  shipmentListSchema,
  shipmentOfReportSchema,
  shipmentReadingsSchema,
  shipmentSchema,
  type Shipment,
  type ShipmentDecision,
  type ShipmentFacts,
  type ShipmentFactsBody,
  type ShipmentGrouping,
  type ShipmentList,
  type ShipmentSummary,
  type ShipmentReadings,
} from '../../schema/shipment';
import { checked, parse, type ApiClient } from './client';

export type { BudgetUse, Shipment, ShipmentDecision, ShipmentFacts, ShipmentFactsBody, ShipmentGrouping, ShipmentLabel, ShipmentList, ShipmentReadings, ShipmentSummary, TransportMode } from '../../schema/shipment';
export { SHIPMENT_STATE_VALUES, TRANSPORT_MODES } from '../../schema/shipment';

/** The list's query as GET /local/shipments takes it (docs/shipments.md#endpoints): each value as sent. */
export interface ShipmentQuery {
  alert?: string;
  state?: string;
  labelsMin?: string;
  mode?: string;
  product?: string;
  startFrom?: string;
  order?: string;
  pageNumber?: number;
}

export interface ShipmentsClient {
  list(query: ShipmentQuery, signal?: AbortSignal): Promise<ShipmentList>;
  one(id: string, signal?: AbortSignal): Promise<Shipment>;
  readings(id: string, signal?: AbortSignal): Promise<ShipmentReadings>;
  putFacts(id: string, body: ShipmentFactsBody): Promise<ShipmentFacts>;
  decide(id: string, body: DecisionBody): Promise<ShipmentDecision>;
  grouping(): Promise<ShipmentGrouping>;
  setGrouping(body: ShipmentGrouping): Promise<ShipmentGrouping>;
  ofReport(reportId: string, signal?: AbortSignal): Promise<ShipmentSummary | null>;
}

const path = (id: string, part = '') => `/local/shipments/${encodeURIComponent(id)}${part}`;

export function shipmentsClient(api: ApiClient): ShipmentsClient {
  return {
    async list(query, signal) {
      const params: Record<string, string> = {};
      for (const [k, v] of Object.entries(query)) if (v !== undefined && v !== '') params[k] = String(v);
      return parse(shipmentListSchema, await api.request('GET', '/local/shipments', { query: params, signal }), 'a list of shipments');
    },
    async one(id, signal) {
      return parse(shipmentSchema, await api.request('GET', path(id), { signal }), 'a shipment');
    },
    async readings(id, signal) {
      return parse(shipmentReadingsSchema, await api.request('GET', path(id, '/readings'), { signal }), 'the readings of a shipment');
    },
    async putFacts(id, body) {
      return parse(shipmentFactsSchema, await api.request('PUT', path(id, '/facts'), { body: checked(shipmentFactsBodySchema, body) }), 'the facts of a shipment');
    },
    async decide(id, body) {
      return parse(shipmentDecisionSchema, await api.request('PUT', path(id, '/decision'), { body: checked(decisionBodySchema, body) }), 'a shipment decision');
    },
    async grouping() {
      return parse(shipmentGroupingSchema, await api.request('GET', '/local/shipments/grouping', {}), 'the shipment grouping');
    },
    async setGrouping(body) {
      return parse(shipmentGroupingSchema, await api.request('PUT', '/local/shipments/grouping', { body: checked(shipmentGroupingSchema, body) }), 'the shipment grouping');
    },
    async ofReport(reportId, signal) {
      const answer = parse(shipmentOfReportSchema, await api.request('GET', `/local/labelReports/${encodeURIComponent(reportId)}/shipment`, { signal }), 'the shipment of a report');
      return answer.shipment;
    },
  };
}
