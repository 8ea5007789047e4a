/**
 * The renderer's only way to the outside world: a typed fetch client for the local /v2 and
 * /local endpoints. Every answer is validated with the shared zod schemas, so a server that
 * drifts from the contract shows up as a clear error instead of a blank cell. Every failure
 * becomes an ApiClientError whose message can be shown to people as it is.
 */
import { z } from 'zod';
import { describeZodError } from '../../contract/zod-messages';
import { apiErrorBodySchema } from '../../schema/api-error';
import {
  apiKeyInfoSchema,
  createApiKeyBodySchema,
  createdApiKeySchema,
  serviceInfoSchema,
  sessionSchema,
  type ApiKeyInfo,
  type CreatedApiKey,
  type ServiceInfo,
  type Session,
} from '../../schema/local';
import {
  localReportPatchSchema,
  labelReportSchema,
  listedLabelReportSchema,
  minimalLabelReportSchema,
  pageSchema,
  permissionSchema,
} from '../../schema/report';
import type {
  LabelReport,
  LocalReportPatch,
  ListedLabelReport,
  MinimalLabelReport,
  Page,
  Permission,
} from '../../schema/report';
import {
  acceptedMessageSchema,
  createdWebhookSchema,
  createWebhookBodySchema,
  deliverySchema,
  rotatedSecretSchema,
  updateWebhookBodySchema,
  webhookSchema,
} from '../../schema/webhooks';
import type { CreatedWebhook, CreateWebhookBody, Delivery, UpdateWebhookBody, Webhook } from '../../schema/webhooks';
import { alertPreviewSchema, companyNameListSchema, customFieldUsageListSchema } from '../../schema/review';
import { reviewListedPageSchema, reviewMinimalPageSchema, type ReviewMinimalReport } from '../../schema/review-list';
import type { AlertPreview, CompanyName, CustomFieldUsage } from '../../schema/review';

/** status 0 means no HTTP answer at all (service down, or the request was refused by the network). */
export class ApiClientError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
    this.name = 'ApiClientError';
  }
}

export const NETWORK_ERROR = 'NETWORK_UNREACHABLE';
export const BAD_RESPONSE = 'BAD_RESPONSE';
export const INVALID_INPUT = 'INVALID_INPUT';

export function isAbortError(err: unknown): boolean {
  return err instanceof DOMException ? err.name === 'AbortError' : (err as { name?: string } | null)?.name === 'AbortError';
}

export type { ApiKeyInfo, CreatedApiKey, ServiceInfo, Session } from '../../schema/local';
export type { CreatedWebhook, CreateWebhookBody, Delivery, UpdateWebhookBody, Webhook } from '../../schema/webhooks';
export type { CompanyName, CustomFieldUsage } from '../../schema/review';

export type Output = 'minimal' | 'normal';

export interface ListParams {
  filter?: string;
  order?: string;
  customFields?: string;
  pageNumber?: number;
  pageSize?: number;
}

/** One request to the service: JSON in and out, or the answer's text (CSV) with `as: 'text'`. */
export type RequestOptions = { query?: Record<string, string>; body?: unknown; signal?: AbortSignal; as?: 'json' | 'text'; headers?: Record<string, string> };

export interface ApiClient {
  readonly baseUrl: string;
  /** The shared request path, for the typed calls kept beside this file (review-client.ts). */
  request(method: string, path: string, init?: RequestOptions): Promise<unknown>;
  /** Every report the list query matches, as CSV (all pages, not one). */
  reportsCsv(params: ListParams & { review?: string; unset?: string }, signal?: AbortSignal): Promise<Blob>;
  /** The custom field ids in use among the reports the key sees, with the kind of their values. */
  customFields(signal?: AbortSignal): Promise<CustomFieldUsage[]>;
  /** Companies by id and name, to show names where the API gives ids. */
  companies(signal?: AbortSignal): Promise<CompanyName[]>;
  /** With `review` (even ''): the review list, GET /local/labelReports, each row with its review state. */
  listReports(params: ListParams & { output: 'minimal'; review: string; unset?: string }, signal?: AbortSignal): Promise<Page<ReviewMinimalReport>>;
  listReports(params: ListParams & { output: 'minimal' }, signal?: AbortSignal): Promise<Page<MinimalLabelReport>>;
  listReports(params: ListParams & { output?: 'normal' }, signal?: AbortSignal): Promise<Page<ListedLabelReport>>;
  getReport(id: string, signal?: AbortSignal): Promise<LabelReport>;
  /** `reason` travels in the x-change-reason header: why the verdict's inputs changed. */
  patchReport(id: string, patch: LocalReportPatch, reason?: string): Promise<LabelReport>;
  /** The alert the patch would give, nothing changed. */
  previewReport?(id: string, patch: LocalReportPatch): Promise<AlertPreview>;
  session(signal?: AbortSignal): Promise<Session>;
  info(signal?: AbortSignal): Promise<ServiceInfo>;
  listKeys(signal?: AbortSignal): Promise<ApiKeyInfo[]>;
  createKey(body: { name: string; permissions: Permission[] }): Promise<CreatedApiKey>;
  revokeKey(id: string): Promise<void>;
  listWebhooks(signal?: AbortSignal): Promise<Webhook[]>;
  createWebhook(body: CreateWebhookBody): Promise<CreatedWebhook>;
  updateWebhook(id: string, body: UpdateWebhookBody): Promise<Webhook>;
  deleteWebhook(id: string): Promise<void>;
  rotateWebhookSecret(id: string): Promise<{ secret: string }>;
  /** Queues a webhook.test message; resolves with its webhook-id. */
  testWebhook(id: string): Promise<{ messageId: string }>;
  /** Newest first; pageNumber counts from 1. */
  listDeliveries(id: string, page: { pageNumber: number; pageSize: number }, signal?: AbortSignal): Promise<Page<Delivery>>;
  redeliver(id: string, messageId: string): Promise<{ messageId: string }>;
}

export interface ClientOptions {
  baseUrl: string;
  apiKey: string;
  fetch?: typeof fetch;
  /** Told the HTTP status of every answer, 0 when the service could not be reached at all. */
  onAnswer?(status: number): void;
}

const minimalPage = pageSchema(minimalLabelReportSchema);
const normalPage = pageSchema(listedLabelReportSchema);
const keyList = z.array(apiKeyInfoSchema);
const webhookList = z.array(webhookSchema);
const deliveryPage = pageSchema(deliverySchema);

// Typed by the schema itself rather than inferred through z.ZodType<T>: that inference compares the
// schema's whole class structure and costs the typecheck seconds per large schema.
export function parse<S extends z.ZodType>(schema: S, value: unknown, what: string): z.output<S> {
  const result = schema.safeParse(value);
  if (!result.success) {
    throw new ApiClientError(200, BAD_RESPONSE, `The service sent ${what} this version of LabelDesk cannot read (${describeZodError(result.error)}).`);
  }
  return result.data;
}

/** Checked here as well as in the forms: nothing malformed ever leaves the renderer. */
export function checked<S extends z.ZodType>(schema: S, input: unknown): z.output<S> {
  const result = schema.safeParse(input);
  if (!result.success) throw new ApiClientError(0, INVALID_INPUT, describeZodError(result.error));
  return result.data;
}

/**
 * How long a read waits for the service to start answering. A service that accepts the
 * connection and then says nothing (stopped in a debugger, its machine asleep, its disk hung) is
 * as unreachable to the person as one that refuses it, and the page says so rather than "Loading"
 * for ever. Reads only: a write that seems lost may have been committed, so it waits as long as
 * the service takes (its own busy wait bounds that; docs/operations.md#the-header).
 */
export const ANSWER_DEADLINE_MS = 30_000;

/** A signal that aborts with `cause` once `ms` pass, or when `outer` aborts. */
function withDeadline(outer: AbortSignal | undefined, ms: number): { signal: AbortSignal; expired: () => boolean; done: () => void } {
  const controller = new AbortController();
  let expired = false;
  const timer = setTimeout(() => {
    expired = true;
    controller.abort();
  }, ms);
  const follow = () => controller.abort();
  if (outer?.aborted) controller.abort();
  else outer?.addEventListener('abort', follow, { once: true });
  return {
    signal: controller.signal,
    expired: () => expired,
    done: () => {
      clearTimeout(timer);
      outer?.removeEventListener('abort', follow);
    },
  };
}

export function createApiClient(options: ClientOptions): ApiClient {
  const baseUrl = options.baseUrl.replace(/\/+$/, '');
  const rawFetch = options.fetch ?? globalThis.fetch.bind(globalThis);
  const doFetch: typeof fetch = async (input, init) => {
    try {
      const response = await rawFetch(input, init);
      options.onAnswer?.(response.status);
      return response;
    } catch (err) {
      if (!isAbortError(err)) options.onAnswer?.(0);
      throw err;
    }
  };

  async function request(method: string, path: string, init: RequestOptions = {}): Promise<unknown> {
    const url = new URL(baseUrl + path);
    // URLSearchParams percent-encodes `[`, `]`, `%`, `\` and `,`; the server decodes them back.
    for (const [k, v] of Object.entries(init.query ?? {})) url.searchParams.set(k, v);
    const headers: Record<string, string> = { 'x-api-key': options.apiKey, accept: init.as === 'text' ? 'text/csv, text/plain' : 'application/json' };
    if (init.body !== undefined) headers['content-type'] = 'application/json';
    Object.assign(headers, init.headers);
    let response: Response;
    const deadline = method === 'GET' ? withDeadline(init.signal, ANSWER_DEADLINE_MS) : null;
    try {
      response = await doFetch(url, {
        method,
        headers,
        body: init.body === undefined ? undefined : JSON.stringify(init.body),
        signal: deadline?.signal ?? init.signal,
        cache: 'no-store',
      });
    } catch (err) {
      if (deadline?.expired()) {
        options.onAnswer?.(0);
        throw unreachable();
      }
      if (isAbortError(err)) throw err;
      throw unreachable();
    } finally {
      deadline?.done();
    }
    if (response.status === 204) return undefined;
    const text = await response.text();
    if (init.as === 'text' && response.ok) return text;
    let body: unknown = undefined;
    if (text) {
      try {
        body = JSON.parse(text);
      } catch {
        if (response.ok) throw new ApiClientError(response.status, BAD_RESPONSE, 'The service answered with something that is not JSON.');
      }
    }
    if (!response.ok) throw refusalOf(response, body);
    return body;
  }

  function unreachable(): ApiClientError {
    return new ApiClientError(0, NETWORK_ERROR, `The local LabelDesk service at ${baseUrl} is unreachable: it does not answer. Check that LabelDesk is running, then try again.`);
  }

  function refusalOf(response: Response, body: unknown): ApiClientError {
    const error = apiErrorBodySchema.safeParse(body);
    if (error.success) return new ApiClientError(response.status, error.data.code, error.data.message);
    return new ApiClientError(response.status, `HTTP_${response.status}`, `The service refused the request (HTTP ${response.status} ${response.statusText}).`.replace(' )', ')'));
  }

  async function refusal(response: Response): Promise<ApiClientError> {
    const text = await response.text().catch(() => '');
    let body: unknown;
    try {
      body = text ? JSON.parse(text) : undefined;
    } catch {
      body = undefined;
    }
    return refusalOf(response, body);
  }

  const client = {
    baseUrl,
    request,
    async listReports(params: ListParams & { output?: Output; review?: string; unset?: string }, signal?: AbortSignal) {
      const query = listQuery(params);
      if (params.output) query.output = params.output;
      if (params.review !== undefined) {
        if (params.review) query.review = params.review;
        if (params.unset) query.unset = params.unset;
        const body = await request('GET', '/local/labelReports', { query, signal });
        return params.output === 'minimal' ? parse(reviewMinimalPageSchema, body, 'a report list') : parse(reviewListedPageSchema, body, 'a report list');
      }
      const body = await request('GET', '/v2/labelReports', { query, signal });
      return params.output === 'minimal' ? parse(minimalPage, body, 'a report list') : parse(normalPage, body, 'a report list');
    },
    async reportsCsv(params: ListParams & { review?: string; unset?: string }, signal?: AbortSignal) {
      const url = new URL(`${baseUrl}/local/labelReports.csv`);
      for (const [k, v] of Object.entries(listQuery(params))) url.searchParams.set(k, v);
      if (params.review) url.searchParams.set('review', params.review);
      if (params.unset) url.searchParams.set('unset', params.unset);
      let response: Response;
      try {
        response = await doFetch(url, { headers: { 'x-api-key': options.apiKey, accept: 'text/csv' }, signal, cache: 'no-store' });
      } catch (err) {
        if (isAbortError(err)) throw err;
        throw unreachable();
      }
      if (!response.ok) throw await refusal(response);
      return response.blob();
    },
    async customFields(signal?: AbortSignal) {
      return parse(customFieldUsageListSchema, await request('GET', '/local/customFields', { signal }), 'the custom fields in use');
    },
    async companies(signal?: AbortSignal) {
      return parse(companyNameListSchema, await request('GET', '/local/companies', { signal }), 'the companies');
    },
    async getReport(id: string, signal?: AbortSignal) {
      return parse(labelReportSchema, await request('GET', `/v2/labelReports/${encodeURIComponent(id)}`, { signal }), 'a report');
    },
    async patchReport(id: string, patch: LocalReportPatch, reason?: string) {
      // A header holds Latin-1 only: the reason goes percent-encoded, and the service decodes it.
      const headers = reason === undefined ? undefined : { 'x-change-reason': encodeURIComponent(reason) };
      // Alert rules are set beside the interface, under /local; everything else through /v2.
      const path = patch.alertsConfig === undefined ? '/v2/labelReports/' : '/local/labelReports/';
      const body = await request('PATCH', path + encodeURIComponent(id), { body: checked(localReportPatchSchema, patch), headers });
      return parse(labelReportSchema, body, 'a report');
    },
    async previewReport(id: string, patch: LocalReportPatch) {
      const body = await request('POST', `/local/labelReports/${encodeURIComponent(id)}/preview`, { body: checked(localReportPatchSchema, patch) });
      return parse(alertPreviewSchema, body, 'the change to the alert');
    },
    async session(signal?: AbortSignal) {
      return parse(sessionSchema, await request('GET', '/local/session', { signal }), 'session details');
    },
    async info(signal?: AbortSignal) {
      return parse(serviceInfoSchema, await request('GET', '/local/info', { signal }), 'service details');
    },
    async listKeys(signal?: AbortSignal) {
      return parse(keyList, await request('GET', '/local/apiKeys', { signal }), 'a key list');
    },
    async createKey(input: { name: string; permissions: Permission[] }) {
      return parse(createdApiKeySchema, await request('POST', '/local/apiKeys', { body: checked(createApiKeyBodySchema, input) }), 'a new key');
    },
    async revokeKey(id: string) {
      await request('DELETE', `/local/apiKeys/${encodeURIComponent(id)}`);
    },
    async listWebhooks(signal?: AbortSignal) {
      return parse(webhookList, await request('GET', '/v2/webhooks', { signal }), 'a webhook list');
    },
    async createWebhook(input: CreateWebhookBody) {
      return parse(createdWebhookSchema, await request('POST', '/v2/webhooks', { body: checked(createWebhookBodySchema, input) }), 'a new webhook');
    },
    async updateWebhook(id: string, input: UpdateWebhookBody) {
      const body = await request('PATCH', webhookPath(id), { body: checked(updateWebhookBodySchema, input) });
      return parse(webhookSchema, body, 'a webhook');
    },
    async deleteWebhook(id: string) {
      await request('DELETE', webhookPath(id));
    },
    async rotateWebhookSecret(id: string) {
      return parse(rotatedSecretSchema, await request('POST', `${webhookPath(id)}/rotate-secret`), 'a new secret');
    },
    async testWebhook(id: string) {
      return parse(acceptedMessageSchema, await request('POST', `${webhookPath(id)}/test`), 'a test message');
    },
    async listDeliveries(id: string, page: { pageNumber: number; pageSize: number }, signal?: AbortSignal) {
      const query = { pageNumber: String(page.pageNumber), pageSize: String(page.pageSize) };
      return parse(deliveryPage, await request('GET', `${webhookPath(id)}/deliveries`, { query, signal }), 'a deliveries log');
    },
    async redeliver(id: string, messageId: string) {
      const body = await request('POST', `${webhookPath(id)}/deliveries/${encodeURIComponent(messageId)}/redeliver`);
      return parse(acceptedMessageSchema, body, 'a redelivery');
    },
  };
  return client as ApiClient;
}

/** The list query's parameters as the query string carries them, for the JSON list and the CSV alike. */
function listQuery(params: ListParams): Record<string, string> {
  const query: Record<string, string> = {};
  if (params.filter) query.filter = params.filter;
  if (params.order) query.order = params.order;
  if (params.customFields) query.customFields = params.customFields;
  if (params.pageNumber !== undefined) query.pageNumber = String(params.pageNumber);
  if (params.pageSize !== undefined) query.pageSize = String(params.pageSize);
  return query;
}

function webhookPath(id: string): string {
  return `/v2/webhooks/${encodeURIComponent(id)}`;
}

/** Message for any thrown value, for error banners. */
export function errorMessage(err: unknown): string {
  if (err instanceof ApiClientError) return err.message;
  if (err instanceof Error) return err.message;
  return String(err);
}
