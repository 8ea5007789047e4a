/** Typed calls of /local/insights, over the shared request path of client.ts. */
import { facetsSchema, groupsSchema, insightsScreenSchema, type Facets, type Groups, type InsightsScreenFigures } from '../../schema/insights';
import { parse } from './client';
import type { ApiClient, ListParams } from './client';

export type { FacetValue, Facets, Group, Groups, InsightsScreenFigures } from '../../schema/insights';

/** The list's filter, and the review list's `review` conditions (GET /local/labelReports). */
type Filters = Pick<ListParams, 'filter' | 'customFields'> & { review?: string; unset?: string };

export interface InsightsClient {
  facets(params: Filters & { keys: string }, signal?: AbortSignal): Promise<Facets>;
  groups(params: Filters & { by: string; zone: string }, signal?: AbortSignal): Promise<Groups>;
  /** Every figure of the Insights screen, read at once. */
  screen(params: Filters & { time: string; by: string; zone: string }, signal?: AbortSignal): Promise<InsightsScreenFigures>;
}

function query(params: Record<string, string | undefined>): Record<string, string> {
  return Object.fromEntries(Object.entries(params).filter((e): e is [string, string] => e[1] !== undefined && e[1] !== ''));
}

export function insightsClient(client: ApiClient): InsightsClient {
  return {
    async facets(params, signal) {
      return parse(facetsSchema, await client.request('GET', '/local/insights/facets', { query: query(params), signal }), 'facets');
    },
    async groups(params, signal) {
      return parse(groupsSchema, await client.request('GET', '/local/insights/groups', { query: query(params), signal }), 'insight groups');
    },
    async screen(params, signal) {
      return parse(insightsScreenSchema, await client.request('GET', '/local/insights/screen', { query: query(params), signal }), 'the insights');
    },
  };
}
