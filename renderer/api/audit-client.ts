/**
 * Typed calls for the audit trail across reports (GET /local/audit and its CSV), through the
 * client's one request path.
 */
import { auditPageSchema, type AuditPage } from '../../schema/audit';
import { parse, type ApiClient } from './client';

export type { AuditEntry, AuditKind, AuditPage } from '../../schema/audit';

/** The trail's filters as the endpoint takes them; an empty value is no filter. */
export interface AuditFilters {
  person?: string;
  kind?: string;
  from?: string;
  to?: string;
}

function given(filters: AuditFilters): Record<string, string> {
  return Object.fromEntries(Object.entries(filters).filter((e): e is [string, string] => typeof e[1] === 'string' && e[1] !== ''));
}

export function auditClient(client: ApiClient) {
  return {
    async page(filters: AuditFilters, cursor: string | null, signal?: AbortSignal): Promise<AuditPage> {
      const query = { ...given(filters), pageSize: '100', ...(cursor ? { cursor } : {}) };
      return parse(auditPageSchema, await client.request('GET', '/local/audit', { query, signal }), 'the audit trail');
    },
    async csv(filters: AuditFilters): Promise<string> {
      return (await client.request('GET', '/local/audit.csv', { query: given(filters), as: 'text' })) as string;
    },
  };
}
