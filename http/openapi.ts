/**
 * The OpenAPI 3.1 document of everything the service answers, at GET /openapi.json, for local
 * tools that generate clients. Each route declares its shapes with the zod schemas in
 * `config.openapi`, and the document is assembled from the routes actually registered, so the
 * two cannot drift apart. zod writes the JSON Schemas (draft 2020-12, the dialect of OpenAPI
 * 3.1). The document only describes: requests are parsed by the routes as before. The groups
 * (tags) of the operations are in openapi-operations.ts, and GET /docs (docs.ts) renders it.
 */
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { apiErrorBodySchema, REASON_PHRASES } from '../schema/api-error';
import { AUTH_HEADER, AUTH_QUERY_PARAMETERS } from './auth';
import { OPERATIONS, TAGS } from './openapi-operations';
import type { RouteChecks } from './route-checks';

/** A schema under the name it has among the document's components. */
export interface Shape {
  readonly name: string;
  readonly schema: z.core.$ZodType;
  /** Schemas inside it that get names of their own, for the clients generated from the document. */
  readonly parts: readonly Shape[];
}

export const shape = (name: string, schema: z.core.$ZodType, parts: readonly Shape[] = []): Shape => ({ name, schema, parts });

export interface OperationDoc {
  operationId: string;
  summary: string;
  description?: string;
  /** One per `:name` in the route's URL. */
  params?: Record<string, z.core.$ZodType>;
  /** Query parameters beside the API key's; all optional. */
  query?: Record<string, z.core.$ZodType>;
  body?: Shape;
  /** Success answers by status: one shape, any of several, or none for an empty answer. */
  responses: Record<number, { description: string; shape?: Shape | Shape[]; /** Default application/json. */ mediaType?: string }>;
  /**
   * Refusals of this route beyond those every route can answer and those its checks imply
   * (`refusalsOf`: a query checked, 400; a report or webhook that must be visible, 404).
   */
  refusals?: number[];
  /** Answers without an API key. */
  public?: true;
}

declare module 'fastify' {
  interface FastifyContextConfig {
    openapi?: OperationDoc;
  }
}

interface Operation {
  method: string;
  url: string;
  doc: OperationDoc;
  /** What route-checks.ts checks before the route's handler; none outside the key's scope. */
  checks?: RouteChecks;
}

type DocumentInfo = { title: string; version: string; description: string };

/** package.json says UNLICENSED: nobody else may use, copy or change it. */
const LICENSE = { name: 'Proprietary (UNLICENSED): no licence is granted', identifier: 'LicenseRef-Proprietary' };
const CONTACT = { name: 'LabelDesk', email: 'support@labeldesk.example' };

/**
 * A page parameter as the document shows it: a whole number from 1, the range parsePage
 * (query/list-query.ts) accepts. Only the document says integer; the route still reads the text
 * itself, so `abc` answers the service's own INVALID_PAGE body.
 */
export const pageParameter = (description: string) => z.int().min(1).max(Number.MAX_SAFE_INTEGER).describe(description);

/** The API's own routes; each must be described (the UI's static files are not the API). */
const API_PREFIXES = ['/v2/', '/local/'];
/** Fastify reads a body on these whatever the route does with it. */
const BODY_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

const SECURITY_SCHEMES = {
  apiKeyHeader: { type: 'apiKey', in: 'header', name: AUTH_HEADER },
  ...Object.fromEntries(AUTH_QUERY_PARAMETERS.map((name) => [`${name}Parameter`, { type: 'apiKey', in: 'query', name }])),
};

const documentShape = shape('OpenApiDocument', z.record(z.string(), z.unknown()));

/**
 * Collects the described routes of `app` and serves their document. `baseUrl` is where the
 * service listens, null while it does not (app.inject).
 */
export function registerOpenApi(app: FastifyInstance, info: DocumentInfo, baseUrl: () => string | null): void {
  const operations: Operation[] = [];
  app.addHook('onRoute', (route) => {
    const doc = route.config?.openapi;
    if (!doc) {
      if (API_PREFIXES.some((prefix) => route.url.startsWith(prefix))) {
        throw new Error(`${String(route.method)} ${route.url} needs config.openapi to be in the OpenAPI document`);
      }
      return;
    }
    const grouping = OPERATIONS[doc.operationId];
    if (!grouping) throw new Error(`${String(route.method)} ${route.url}: ${doc.operationId} needs a tag in http/openapi-operations.ts`);
    if (!doc.description && !grouping.description) {
      throw new Error(`${String(route.method)} ${route.url}: ${doc.operationId} needs a description`);
    }
    const checks = route.config?.checks;
    const accepted = checks?.query;
    const undeclared = Array.isArray(accepted) ? Object.keys(doc.query ?? {}).filter((name) => !accepted.includes(name)) : [];
    if (undeclared.length > 0) {
      throw new Error(`${String(route.method)} ${route.url}: documents query parameters its checks refuse: ${undeclared.join(', ')}`);
    }
    // HEAD routes are Fastify's automatic twins of GET.
    for (const method of [route.method].flat()) if (method !== 'HEAD') operations.push({ method, url: route.url, doc, checks });
  });

  let document: ReturnType<typeof openApiDocument> | undefined;
  app.get(
    '/openapi.json',
    {
      config: {
        openapi: {
          operationId: 'getOpenApiDocument',
          summary: 'This document',
          public: true,
          responses: { 200: { description: 'The OpenAPI 3.1 document of the service', shape: documentShape } },
        },
      },
    },
    // Built on first use, when every route has been registered.
    async () => {
      const { openapi, info: described, ...rest } = (document ??= openApiDocument(operations, info));
      // Asked each time: the port is known only once the service listens.
      const url = baseUrl();
      const server = url === null ? { url: '/', description: 'Where this document was fetched from' } : { url, description: 'This service' };
      return { openapi, info: described, servers: [server], ...rest };
    },
  );
}

function openApiDocument(operations: readonly Operation[], info: DocumentInfo) {
  const components = new Components();
  const paths: Record<string, Record<string, unknown>> = {};
  for (const { method, url, doc, checks } of operations) {
    const path = url.replace(/:([A-Za-z0-9_]+)/g, '{$1}');
    (paths[path] ??= {})[method.toLowerCase()] = operationObject(method, url, doc, checks, components);
  }
  return {
    openapi: '3.1.0',
    info: { ...info, contact: CONTACT, license: LICENSE },
    security: Object.keys(SECURITY_SCHEMES).map((name) => ({ [name]: [] })),
    tags: TAGS,
    paths,
    components: { schemas: components.schemas(), securitySchemes: SECURITY_SCHEMES },
  };
}

function operationObject(method: string, url: string, doc: OperationDoc, checks: RouteChecks | undefined, components: Components) {
  const pathNames = [...url.matchAll(/:([A-Za-z0-9_]+)/g)].map((m) => m[1]);
  const declared = Object.keys(doc.params ?? {});
  if (pathNames.join() !== declared.join()) {
    throw new Error(`${method} ${url}: params must describe ${pathNames.join(', ') || 'nothing'}, not ${declared.join(', ')}`);
  }
  const parameters = [
    ...Object.entries(doc.params ?? {}).map(([name, schema]) => parameter(name, 'path', schema)),
    ...Object.entries(doc.query ?? {}).map(([name, schema]) => parameter(name, 'query', schema)),
  ];
  const responses: Record<string, unknown> = {};
  for (const [status, { description, shape: answer, mediaType }] of Object.entries(doc.responses)) {
    const content = (schema: unknown) => (mediaType === undefined ? json(schema) : { [mediaType]: { schema } });
    if (!answer) responses[status] = { description };
    else if (Array.isArray(answer)) responses[status] = { description, content: content({ anyOf: answer.map((a) => components.ref(a, 'output')) }) };
    else responses[status] = { description, content: content(components.ref(answer, 'output')) };
  }
  for (const status of refusalsOf(method, doc, checks)) {
    responses[status] = { description: REASON_PHRASES[status], content: json(components.ref(errorShape(status), 'output')) };
  }
  const { tag, description } = OPERATIONS[doc.operationId];
  return {
    operationId: doc.operationId,
    summary: doc.summary,
    description: doc.description ?? description,
    tags: [tag],
    ...(doc.public && { security: [] }),
    ...(parameters.length > 0 && { parameters }),
    ...(doc.body && { requestBody: { required: true, content: json(components.ref(doc.body, 'input')) } }),
    responses,
  };
}

/** Every refusal the route can answer: its own, and those made before or around it. */
function refusalsOf(method: string, doc: OperationDoc, checks: RouteChecks | undefined): number[] {
  const statuses = new Set(doc.refusals);
  statuses.add(403); // a Host or Origin the loopback guard refuses, or a permission the key lacks
  if (!doc.public) statuses.add(401);
  if (checks?.visible) statuses.add(404);
  if (checks && checks.query !== 'unchecked') statuses.add(400); // an unknown or repeated query parameter
  if (BODY_METHODS.has(method)) for (const status of [400, 413, 415]) statuses.add(status);
  statuses.add(500);
  return [...statuses].sort((a, b) => a - b);
}

function parameter(name: string, where: 'path' | 'query', schema: z.core.$ZodType) {
  const { description, ...rest } = jsonSchema(schema, 'input');
  return { name, in: where, required: where === 'path', ...(description !== undefined && { description }), schema: rest };
}

const json = (schema: unknown) => ({ 'application/json': { schema } });

const errorShapes = new Map<number, Shape>();

/** The error body of docs/api.md#errors for one status. */
function errorShape(status: number): Shape {
  let named = errorShapes.get(status);
  if (!named) {
    const schema = apiErrorBodySchema.extend({ statusCode: z.literal(status), error: z.literal(REASON_PHRASES[status]) });
    errorShapes.set(status, (named = shape(`Error${status}`, schema)));
  }
  return named;
}

function jsonSchema(schema: z.core.$ZodType, io: 'input' | 'output'): Record<string, unknown> {
  const { $schema: _dialect, ...rest } = z.toJSONSchema(schema, { io });
  return rest;
}

/**
 * The named shapes the operations refer to, converted together so that one refers to another
 * by `$ref`. A request body is described as zod reads it (io: input), an answer as the service
 * writes it (io: output).
 */
class Components {
  private readonly shapes = new Map<string, { schema: z.core.$ZodType; io: 'input' | 'output' }>();

  ref(named: Shape, io: 'input' | 'output'): { $ref: string } {
    const known = this.shapes.get(named.name);
    if (known && (known.schema !== named.schema || known.io !== io)) {
      throw new Error(`${named.name} names two schemas, or one used both as a body and as an answer`);
    }
    this.shapes.set(named.name, { schema: named.schema, io });
    for (const part of named.parts) this.ref(part, io);
    return { $ref: `#/components/schemas/${named.name}` };
  }

  schemas(): Record<string, unknown> {
    const out: Record<string, unknown> = {};
    for (const io of ['input', 'output'] as const) {
      const registry = z.registry<{ id: string }>();
      for (const [id, { schema }] of this.shapes) registry.add(schema, { id });
      const converted = z.toJSONSchema(registry, { io, uri: (id) => `#/components/schemas/${id}` }).schemas;
      for (const [id, { io: wanted }] of this.shapes) {
        if (wanted !== io) continue;
        // An $id would re-base the component's own $refs, and $schema repeats OpenAPI 3.1's default.
        const { $schema: _dialect, $id: _id, ...schema } = converted[id];
        out[id] = schema;
      }
    }
    return Object.fromEntries(Object.entries(out).sort(([a], [b]) => a.localeCompare(b)));
  }
}
