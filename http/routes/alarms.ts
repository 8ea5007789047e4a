/**
 * /local/alarms: the company's alarms with who was told, its rules, quiet hours and digest, the
 * desk's SMTP relay with a test mail, the e-mail delivery log and people's addresses. The
 * order of refusals is the other /local routes': key (401) → permission (403) → body type and
 * JSON (415, 400) → query parameters and body fields (400) → what is named (404).
 */
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { sendTestMail } from '../../alarms/test-mail';
import { waitForDatabase } from '../../db/busy';
import { InvalidInputError } from '../../model/errors';
import { DEFAULT_PAGE_SIZE, parsePage } from '../../query/list-query';
import {
  ALARM_STATES,
  alarmDeliverySchema,
  alarmListSchema,
  alarmRuleBodySchema,
  alarmRuleSchema,
  alarmSchema,
  alarmSettingsAnswerSchema,
  alarmSettingsSchema,
  smtpSettingsBodySchema,
  smtpSettingsSchema,
  smtpTestBodySchema,
  smtpTestResultSchema,
  ruleTestResultSchema,
} from '../../schema/alarms';
import { NotFoundError } from '../../model/errors';
import type { AlarmService } from '../../service/alarms';
import { callerOf } from '../auth';
import { judgeBodiesLate, parseObjectBody } from '../body';
import { pageParameter, shape, type OperationDoc } from '../openapi';
import { queryParametersOf, type RouteChecks } from '../route-checks';

const READ = ' (needs labelReports:read)';
const MANAGE_NOTE = ' (needs webhooks:manage)';

const RULE = shape('AlarmRule', alarmRuleSchema);
const RULE_BODY = shape('AlarmRuleBody', alarmRuleBodySchema);
const SETTINGS = shape('AlarmSettings', alarmSettingsAnswerSchema);
const SETTINGS_BODY = shape('AlarmSettingsBody', alarmSettingsSchema);
const SMTP = shape('SmtpSettings', smtpSettingsSchema);
const ALARM = shape('Alarm', alarmSchema);
const id = { id: z.string().describe('The id, as answered') };
const page = {
  pageNumber: pageParameter('The page to answer, counted from 1. Default 1.'),
  pageSize: pageParameter(`Entries per page. Default ${DEFAULT_PAGE_SIZE}.`),
};

const DOCS: Record<string, OperationDoc> = {
  list: {
    operationId: 'listAlarms',
    summary: `The company’s alarms, newest first, with who was told when and through which channel${READ}`,
    description:
      'An alarm is open until the review acknowledges the report’s alert (of at least its level, since it was raised), escalated once it went to a next step; ' +
      '`unacknowledged` counts the open and escalated ones, as the header shows.',
    query: {
      state: z.enum(ALARM_STATES).describe('Only alarms in this state'),
      reportId: z.string().describe('Only alarms of this report'),
      level: z.enum(['1', '2']).describe('Only alarms of this level: 1 moderate, 2 critical'),
      ...page,
    },
    responses: { 200: { description: 'One page of alarms', shape: shape('AlarmList', alarmListSchema, [ALARM]) } },
    refusals: [400],
  },
  get: { operationId: 'getAlarm', summary: `One alarm of the company${READ}`, params: id, responses: { 200: { description: 'The alarm', shape: ALARM } }, refusals: [404] },
  rules: { operationId: 'listAlarmRules', summary: `The company’s alarm rules${READ}`, responses: { 200: { description: 'The rules', shape: shape('AlarmRuleList', z.array(alarmRuleSchema), [RULE]) } } },
  createRule: {
    operationId: 'createAlarmRule',
    summary: `A rule: which reports raise an alarm, who is told and how${MANAGE_NOTE}`,
    description:
      '`filter` and `customFields` take the list’s grammar and are judged as the list judges them; `steps[0]` is told when the alarm is raised, ' +
      'each next step when nobody acknowledged within `escalateAfterMinutes`. Users are named by id and must be the company’s.',
    body: RULE_BODY,
    responses: { 201: { description: 'The rule', shape: RULE } },
  },
  updateRule: {
    operationId: 'updateAlarmRule',
    summary: `Replaces a rule’s conditions, people, channels and escalation${MANAGE_NOTE}`,
    description: 'The whole rule, as at creation; alarms it raised before keep their state.',
    params: id,
    body: RULE_BODY,
    responses: { 200: { description: 'The rule', shape: RULE } },
    refusals: [404],
  },
  testRule: {
    operationId: 'testAlarmRule',
    summary: `Sends a test notification of a rule: a test mail to each address its first step e-mails, through the relay as set${MANAGE_NOTE}`,
    description: 'Sent at once, quiet hours or not, and not written to the delivery log; the answer says, per address, the relay’s reply or why it failed, and names the people the step tells on the desktop only. 404 when the rule or the relay is not there.',
    params: id,
    responses: { 200: { description: 'How each mail went', shape: shape('AlarmRuleTestResult', ruleTestResultSchema) } },
    refusals: [404],
  },
  deleteRule: { operationId: 'deleteAlarmRule', summary: `Removes a rule${MANAGE_NOTE}`, params: id, responses: { 204: { description: 'Removed' } }, refusals: [404] },
  settings: { operationId: 'getAlarmSettings', summary: `The company’s alarm settings${READ}`, responses: { 200: { description: 'The settings', shape: SETTINGS } } },
  updateSettings: {
    operationId: 'updateAlarmSettings',
    summary: `Quiet hours and the daily digest${MANAGE_NOTE}`,
    description: 'During quiet hours (read in `zone`) alarm e-mails wait until they end; the desktop still shows the alarm. The digest lists the alarms of the 24 hours before it.',
    body: SETTINGS_BODY,
    responses: { 200: { description: 'The settings', shape: SETTINGS } },
  },
  smtp: { operationId: 'getSmtpSettings', summary: `The SMTP relay${MANAGE_NOTE}`, responses: { 200: { description: 'The relay', shape: SMTP } }, refusals: [404] },
  updateSmtp: {
    operationId: 'updateSmtpSettings',
    summary: `Sets the SMTP relay${MANAGE_NOTE}`,
    description: 'The password is held by the running service only, never written to the database; absent, the one it holds stays; null forgets it.',
    body: shape('SmtpSettingsBody', smtpSettingsBodySchema),
    responses: { 200: { description: 'The relay', shape: SMTP } },
  },
  testSmtp: {
    operationId: 'testSmtp',
    summary: `Sends a test mail through the relay as set${MANAGE_NOTE}`,
    description: 'Answers what the relay said: `ok` false with the failure in words when it did not take the mail.',
    body: shape('SmtpTestBody', smtpTestBodySchema),
    responses: { 200: { description: 'How it went', shape: shape('SmtpTestResult', smtpTestResultSchema) } },
    refusals: [404],
  },
  deliveries: {
    operationId: 'listAlarmDeliveries',
    summary: `The alarm e-mail log${MANAGE_NOTE}`,
    query: page,
    responses: { 200: { description: 'One page of the log', shape: shape('AlarmDeliveryPage', z.object({ deliveries: z.array(alarmDeliverySchema), totalDocuments: z.int() })) } },
    refusals: [400],
  },
  email: {
    operationId: 'setPersonEmail',
    summary: `A person’s e-mail address for alarms${MANAGE_NOTE}`,
    params: { login: z.string().describe('The person’s login') },
    body: shape('PersonEmailBody', personEmailBodySchema()),
    responses: { 204: { description: 'Set' } },
    refusals: [404],
  },
};

function personEmailBodySchema() {
  return z.strictObject({ email: z.email({ message: 'not an e-mail address' }).max(254).nullable() });
}

const MANAGE = 'webhooks:manage';
const LIST: RouteChecks = { permission: 'labelReports:read', query: ['state', 'reportId', 'level', 'pageNumber', 'pageSize'] };
const READ_ONLY: RouteChecks = { permission: 'labelReports:read', query: [] };
const MANAGED: RouteChecks = { permission: MANAGE, query: [] };
const MANAGED_BODY: RouteChecks = { permission: MANAGE, body: true, query: [] };
const MANAGED_PAGES: RouteChecks = { permission: MANAGE, query: ['pageNumber', 'pageSize'] };

type WithId = { Params: { id: string } };

export function alarmRoutes(service: { alarms: AlarmService }, options: { busyWaitMs: number }) {
  const { alarms } = service;
  const write = <T>(run: () => T) => waitForDatabase(run, options.busyWaitMs);

  return async function routes(app: FastifyInstance): Promise<void> {
    judgeBodiesLate(app);

    app.get('/local/alarms', { config: { openapi: DOCS.list, checks: LIST } }, async (request) => {
      const given = queryParametersOf(request);
      const state = given.get('state');
      if (state !== undefined && !(ALARM_STATES as readonly string[]).includes(state)) {
        throw new InvalidInputError('INVALID_PARAMETER', `state: '${state}' is none of ${ALARM_STATES.join(', ')}`);
      }
      const level = given.get('level');
      if (level !== undefined && level !== '1' && level !== '2') throw new InvalidInputError('INVALID_PARAMETER', `level: '${level}' is neither 1 nor 2`);
      return alarms.list(callerOf(request), {
        state: state as (typeof ALARM_STATES)[number] | undefined,
        reportId: given.get('reportId'),
        level: level === undefined ? undefined : (Number(level) as 1 | 2),
        pageNumber: parsePage('pageNumber', given.get('pageNumber'), 1),
        pageSize: parsePage('pageSize', given.get('pageSize'), DEFAULT_PAGE_SIZE),
      });
    });

    app.get('/local/alarms/rules', { config: { openapi: DOCS.rules, checks: READ_ONLY } }, async (request) => alarms.rules(callerOf(request)));

    app.post('/local/alarms/rules', { config: { openapi: DOCS.createRule, checks: MANAGED_BODY } }, async (request, reply) => {
      const caller = callerOf(request);
      const body = parseObjectBody(alarmRuleBodySchema, request.body);
      return reply.code(201).send(await write(() => alarms.createRule(caller, caller.companyId, body)));
    });

    app.put<WithId>('/local/alarms/rules/:id', { config: { openapi: DOCS.updateRule, checks: MANAGED_BODY } }, async (request) => {
      const caller = callerOf(request);
      const body = parseObjectBody(alarmRuleBodySchema, request.body);
      return write(() => alarms.updateRule(caller, request.params.id, body));
    });

    app.post<WithId>('/local/alarms/rules/:id/test', { config: { openapi: DOCS.testRule, checks: MANAGED } }, async (request) => {
      const caller = callerOf(request);
      const { addresses, desktopOnly } = alarms.firstStepRecipients(caller, request.params.id);
      if (!alarms.smtpSettings(caller) && addresses.length > 0) throw new NotFoundError('NOT_FOUND', 'no SMTP relay is set: set one in Settings › E-mail for alarms');
      const mails = [];
      // One after the other: a relay that limits connections refuses parallel logins.
      for (const to of addresses) mails.push({ to, ...(await sendTestMail(alarms.smtpRecord(), alarms.smtpPassword, to)) });
      return { mails, desktopOnly };
    });

    app.delete<WithId>('/local/alarms/rules/:id', { config: { openapi: DOCS.deleteRule, checks: MANAGED } }, async (request, reply) => {
      await write(() => alarms.removeRule(callerOf(request), request.params.id));
      return reply.code(204).send();
    });

    app.get('/local/alarms/settings', { config: { openapi: DOCS.settings, checks: READ_ONLY } }, async (request) => alarms.settings(callerOf(request)));

    app.put('/local/alarms/settings', { config: { openapi: DOCS.updateSettings, checks: MANAGED_BODY } }, async (request) => {
      const caller = callerOf(request);
      const body = parseObjectBody(alarmSettingsSchema, request.body);
      return write(() => alarms.saveSettings(caller, caller.companyId, body));
    });

    app.get('/local/alarms/smtp', { config: { openapi: DOCS.smtp, checks: MANAGED } }, async (request) => {
      const smtp = alarms.smtpSettings(callerOf(request));
      if (!smtp) throw new NotFoundError('NOT_FOUND', 'no SMTP relay is set');
      return smtp;
    });

    app.put('/local/alarms/smtp', { config: { openapi: DOCS.updateSmtp, checks: MANAGED_BODY } }, async (request) => {
      const caller = callerOf(request);
      const body = parseObjectBody(smtpSettingsBodySchema, request.body);
      return write(() => alarms.saveSmtp(caller, body));
    });

    app.post('/local/alarms/smtp/test', { config: { openapi: DOCS.testSmtp, checks: MANAGED_BODY } }, async (request) => {
      const caller = callerOf(request);
      const body = parseObjectBody(smtpTestBodySchema, request.body);
      const smtp = alarms.smtpSettings(caller);
      if (!smtp) throw new NotFoundError('NOT_FOUND', 'no SMTP relay is set');
      return sendTestMail(alarms.smtpRecord(), alarms.smtpPassword, body.to);
    });

    app.get('/local/alarms/deliveries', { config: { openapi: DOCS.deliveries, checks: MANAGED_PAGES } }, async (request) => {
      const given = queryParametersOf(request);
      return alarms.deliveries(callerOf(request), parsePage('pageNumber', given.get('pageNumber'), 1), parsePage('pageSize', given.get('pageSize'), DEFAULT_PAGE_SIZE));
    });

    app.put<{ Params: { login: string } }>('/local/alarms/people/:login/email', { config: { openapi: DOCS.email, checks: MANAGED_BODY } }, async (request, reply) => {
      const caller = callerOf(request);
      const { email } = parseObjectBody(personEmailBodySchema(), request.body);
      await write(() => alarms.setEmail(caller, caller.companyId, request.params.login, email));
      return reply.code(204).send();
    });

    app.get<WithId>('/local/alarms/:id', { config: { openapi: DOCS.get, checks: READ_ONLY } }, async (request) => alarms.get(callerOf(request), request.params.id));
  };
}
