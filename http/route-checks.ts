/**
 * What a route needs before its handler reads the request, declared in its `config.checks` and
 * checked here, in one hook, in the order of docs/api.md#errors:
 *
 *   key (401, auth.ts, when the request arrives)
 *   → body over 1 MiB or not matching its content-length (413, 400, while Fastify reads it; body.ts)
 *   → the key's permission (403)
 *   → the report or webhook the URL's `:id` names is the company's to see (404)
 *   → the body's type and JSON (415, 400), for a route that takes one
 *   → the query parameters (400)
 *
 * and then the handler: it reads the body's fields (400) and the service judges the rest (the
 * company's role 403, conflicts 409). A route behind the key that declares nothing is refused
 * when the app starts, so no route can skip a check by forgetting it.
 */
import type { FastifyInstance, FastifyRequest, RouteOptions } from 'fastify';
import { readQueryParameters, type RawQuery } from '../query/list-query';
import type { Permission } from '../schema/report';
import { requirePermission, type Caller } from '../service/api-keys';
import type { ServedService } from './served-service';
import { AUTH_QUERY_PARAMETERS, callerOf } from './auth';
import { jsonBody } from './body';

export interface RouteChecks {
  /** The permission the key must hold; null when any valid key may call the route. */
  readonly permission: Permission | null;
  /** The URL's `:id` names a report, a webhook or a shipment, refused as not found unless the key's company sees it. */
  readonly visible?: 'report' | 'webhook' | 'shipment';
  /** The route takes a JSON body (judged late, body.ts); after the checks `request.body` holds it, undefined when none came. */
  readonly body?: true;
  /**
   * The query parameters the route reads beside the API key's, each given at most once as text;
   * any other is refused. 'unchecked': the route reads none and refuses none.
   */
  readonly query: readonly string[] | 'unchecked';
}

declare module 'fastify' {
  interface FastifyContextConfig {
    checks?: RouteChecks;
  }
  interface FastifyRequest {
    /** The query parameters the route declared, as given; set by the route checks. */
    queryParameters: ReadonlyMap<string, string> | null;
  }
}

/**
 * Whether the company sees what the URL names. The service's own authorize methods answer it,
 * each for the permission it is asked under (they check that permission again, already granted).
 */
type VisibilityCheck = (service: Pick<ServedService, 'intake' | 'reports' | 'webhooks' | 'shipments'>, caller: Caller, id: string) => void;

const REPORT_VISIBLE: Partial<Record<Permission, VisibilityCheck>> = {
  'labelReports:read': (service, caller, id) => service.reports.authorize(caller, 'read', id),
  'labelReports:update': (service, caller, id) => service.reports.authorize(caller, 'update', id),
  'labelReports:create': (service, caller, id) => service.intake.authorize(caller, id),
};

const WEBHOOK_VISIBLE: Partial<Record<Permission, VisibilityCheck>> = {
  'webhooks:manage': (service, caller, id) => service.webhooks.authorize(caller, id),
};

const SHIPMENT_VISIBLE: Partial<Record<Permission, VisibilityCheck>> = {
  'labelReports:read': (service, caller, id) => service.shipments.authorize(caller, 'read', id),
  'labelReports:update': (service, caller, id) => service.shipments.authorize(caller, 'update', id),
};

const VISIBLE = { report: REPORT_VISIBLE, webhook: WEBHOOK_VISIBLE, shipment: SHIPMENT_VISIBLE };

/** Every route registered in `scope` (after this) declares its checks, and they run before its handler. */
export function registerRouteChecks(scope: FastifyInstance, service: Pick<ServedService, 'intake' | 'reports' | 'webhooks' | 'shipments'>): void {
  scope.decorateRequest('queryParameters', null);
  scope.addHook('onRoute', (route) => {
    validate(route);
  });
  scope.addHook('preHandler', async (request) => {
    const checks = request.routeOptions.config.checks;
    // validate() made sure every route in this scope has them.
    if (!checks) throw new Error(`${request.routeOptions.url} declares no checks`);
    const caller = callerOf(request);
    if (checks.permission !== null) requirePermission(caller, checks.permission);
    if (checks.visible) {
      const { id } = request.params as { id: string };
      VISIBLE[checks.visible][checks.permission as Permission]!(service, caller, id);
    }
    if (checks.body) request.body = jsonBody(request);
    if (checks.query !== 'unchecked') request.queryParameters = readDeclared(request, checks.query);
  });
}

/** The declared query parameters a route reads, as given. */
export function queryParametersOf(request: FastifyRequest): ReadonlyMap<string, string> {
  if (!request.queryParameters) throw new Error(`${request.routeOptions.url} declares no query parameters`);
  return request.queryParameters;
}

function readDeclared(request: FastifyRequest, names: readonly string[]): Map<string, string> {
  const given = readQueryParameters(request.query as RawQuery, new Set([...names, ...AUTH_QUERY_PARAMETERS]), knownHint(names));
  for (const name of AUTH_QUERY_PARAMETERS) given.delete(name);
  return given;
}

/** How the unknown-parameter message ends: the parameters the route does know. */
function knownHint(names: readonly string[]): string {
  if (names.length === 0) return '';
  return names.length === 1 ? `; known is ${names[0]}` : `; known are ${names.join(', ')}`;
}

function validate(route: RouteOptions): void {
  const where = `${[route.method].flat().join(',')} ${route.url}`;
  const checks = route.config?.checks;
  if (!checks) throw new Error(`${where} declares no config.checks: the permission, visibility and query parameters it needs`);
  if (checks.visible) {
    if (!/\/:id(\/|$)/.test(route.url)) throw new Error(`${where}: visible needs an :id in the URL`);
    if (checks.permission === null || !VISIBLE[checks.visible][checks.permission]) {
      throw new Error(`${where}: no ${checks.visible} visibility check under permission ${String(checks.permission)}`);
    }
  }
}
