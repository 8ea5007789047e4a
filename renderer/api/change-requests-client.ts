/**
 * Typed calls for signed verdict changes (docs/review-and-audit.md#signed-verdict-changes): a
 * report's change requests, asking for one (signed at once where allowed), approving one with a
 * signature, declining one, and the company's requests that wait for a signature.
 */
import {
  approvalBodySchema,
  changeRequestBodySchema,
  changeRequestListSchema,
  changeRequestSchema,
  declineBodySchema,
} from '../../schema/change-request';
import type { ApprovalBody, ChangeRequestBody, ChangeRequestView, DeclineBody } from '../../schema/change-request';
import { checked, parse } from './client';
import type { ApiClient } from './client';

export type { ChangeRequestView } from '../../schema/change-request';

const requestsPath = (id: string) => `/local/labelReports/${encodeURIComponent(id)}/changeRequests`;

export interface ChangeRequestsClient {
  forReport(id: string, signal?: AbortSignal): Promise<ChangeRequestView[]>;
  pending(signal?: AbortSignal): Promise<ChangeRequestView[]>;
  request(id: string, body: ChangeRequestBody): Promise<ChangeRequestView>;
  approve(id: string, requestId: string, body: ApprovalBody): Promise<ChangeRequestView>;
  decline(id: string, requestId: string, body: DeclineBody): Promise<ChangeRequestView>;
}

export function changeRequestsClient(client: ApiClient): ChangeRequestsClient {
  return {
    async forReport(id, signal) {
      return parse(changeRequestListSchema, await client.request('GET', requestsPath(id), { signal }), 'the change requests');
    },
    async pending(signal) {
      return parse(changeRequestListSchema, await client.request('GET', '/local/changeRequests', { signal }), 'the change requests');
    },
    async request(id, body) {
      const answer = await client.request('POST', requestsPath(id), { body: checked(changeRequestBodySchema, body) });
      return parse(changeRequestSchema, answer, 'a change request');
    },
    async approve(id, requestId, body) {
      const answer = await client.request('POST', `${requestsPath(id)}/${encodeURIComponent(requestId)}/approval`, { body: checked(approvalBodySchema, body) });
      return parse(changeRequestSchema, answer, 'a change request');
    },
    async decline(id, requestId, body) {
      const answer = await client.request('POST', `${requestsPath(id)}/${encodeURIComponent(requestId)}/decline`, { body: checked(declineBodySchema, body) });
      return parse(changeRequestSchema, answer, 'a change request');
    },
  };
}
