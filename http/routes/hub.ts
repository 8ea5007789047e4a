/**
 * /local/hub (docs/sync.md#a-hub-for-a-team): what a hub serves the desks that sync with it,
 * beside /v2: its company's people in the order of their changes, and a password changed at a
 * desk taken or refused. Both need `people:sync`, which a desk's remote key holds: the answer
 * carries password hashes. Every answer is checked against its shape before it leaves.
 */
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { describeZodError } from '../../contract/zod-messages';
import { waitForDatabase } from '../../db/busy';
import { ApiError } from '../../schema/api-error';
import {
  HUB_PEOPLE_PAGE,
  hubPasswordAnswerSchema,
  hubPasswordBodySchema,
  hubPeoplePageSchema,
  hubPeopleQuerySchema,
  hubPersonSchema,
} from '../../schema/hub';
import { judgeBodiesLate, parseObjectBody } from '../body';
import { shape, type OperationDoc } from '../openapi';
import { queryParametersOf, type RouteChecks } from '../route-checks';
import { callerOf } from '../auth';
import type { ServedService } from '../served-service';

const NEEDS = ' (needs people:sync)';
const PERSON = shape('HubPerson', hubPersonSchema);

const PEOPLE_DOC: OperationDoc = {
  operationId: 'listHubPeople',
  summary: `The company’s people changed after a number, in the order of their changes, with their password hashes${NEEDS}`,
  description:
    'A desk syncing with this LabelDesk as its hub reads them after each /v2 pull and applies them: who may sign in there, with which password. ' +
    '`seq` numbers each person’s latest change; ask again with `after` the last one’s `seq` while `more` is true.',
  query: {
    after: z.string().describe('Only people whose latest change is numbered after this (default 0: all)'),
    limit: z.string().describe(`At most this many people (1 to ${HUB_PEOPLE_PAGE}, the default)`),
  },
  responses: { 200: { description: 'People, oldest change first', shape: shape('HubPeoplePage', hubPeoplePageSchema, [PERSON]) } },
  refusals: [400],
};
const PASSWORD_DOC: OperationDoc = {
  operationId: 'sendHubPassword',
  summary: `A password changed at a desk, for the hub to take or refuse${NEEDS}`,
  description:
    'Taken unless the person is disabled here, or their password here changed after the one the desk held (`basedOn`, the person’s `passwordSeq` the desk had): ' +
    'the hub keeps its order, and the desk takes the person as answered.',
  params: { id: z.string().describe('The person’s id') },
  body: shape('HubPasswordBody', hubPasswordBodySchema),
  responses: { 200: { description: 'Whether the hub took it, and the person as the hub holds them now', shape: shape('HubPasswordAnswer', hubPasswordAnswerSchema, [PERSON]) } },
  refusals: [404],
};

const PEOPLE: RouteChecks = { permission: 'people:sync', query: ['after', 'limit'] };
const PASSWORD: RouteChecks = { permission: 'people:sync', body: true, query: [] };

export function hubRoutes(service: Pick<ServedService, 'hub'>, options: { busyWaitMs: number }) {
  return async function routes(app: FastifyInstance): Promise<void> {
    judgeBodiesLate(app);

    app.get('/local/hub/people', { config: { openapi: PEOPLE_DOC, checks: PEOPLE } }, async (request) => {
      const parsed = hubPeopleQuerySchema.safeParse(Object.fromEntries(queryParametersOf(request)));
      if (!parsed.success) throw new ApiError(400, 'INVALID_QUERY', describeZodError(parsed.error));
      return hubPeoplePageSchema.parse(service.hub.people(callerOf(request), parsed.data.after, parsed.data.limit));
    });

    app.post<{ Params: { id: string } }>('/local/hub/people/:id/password', { config: { openapi: PASSWORD_DOC, checks: PASSWORD } }, async (request) => {
      const body = parseObjectBody(hubPasswordBodySchema, request.body);
      const answer = await waitForDatabase(() => service.hub.takePassword(callerOf(request), request.params.id, body), options.busyWaitMs);
      return hubPasswordAnswerSchema.parse(answer);
    });
  };
}
