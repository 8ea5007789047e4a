/**
 * `labeldesk alarms rules|add-rule|remove-rule|list|email`: a company's alarm rules, its alarms
 * with who was told, and people's e-mail addresses, for IT scripts. The command line manages the
 * file itself, so it acts for the company it names.
 */
import { describeZodError } from '../contract/zod-messages';
import { levelName } from '../model/alarm';
import { ALARM_STATES, alarmRuleBodySchema } from '../schema/alarms';
import type { Service } from '../host/open-service';
import type { Caller } from '../service/api-keys';
import { CliError, EXIT_OK, integerOption, parseCommandArgs, runSubcommand, table, UsageError, withCliService, write, type Command, type Io } from './args';
import { unknownCompany } from './keys';

const USAGE = [
  'labeldesk alarms rules [--db FILE] [--company ID]',
  'labeldesk alarms add-rule [--db FILE] --company ID --name TEXT --level moderate|critical --step WHO [--step WHO ...]',
  '                          [--filter F] [--custom-fields C] [--channels email,desktop,webhook] [--escalate-after MINUTES]',
  'labeldesk alarms remove-rule [--db FILE] --company ID RULE_ID',
  'labeldesk alarms list [--db FILE] --company ID [--state open|escalated|acknowledged] [--report ID]',
  'labeldesk alarms email [--db FILE] --company ID --login LOGIN --email ADDRESS|none',
].join('\n       ');

export const alarmsCommand: Command = {
  name: 'alarms',
  summary: 'alarm rules, alarms and who was told, people’s e-mail addresses',
  usage: USAGE,
  help: `usage: ${USAGE}

  rules        shows the rules (id, company, name, level, conditions, steps, channels, escalation)
  add-rule     adds a rule; each --step is who is told at that step, comma separated: logins of
               the company's people and e-mail addresses; the first when the alarm is raised,
               each next one when nobody acknowledged within --escalate-after minutes
  remove-rule  removes a rule (its alarms stay)
  list         shows the company's alarms, newest first, with their state and who was told
  email        sets the address alarm e-mails reach a person at ('none' removes it)

options:
  --db FILE            the database (default: the per-user data folder)
  --company ID         the company the rules and alarms belong to
  --level L            moderate (moderate or critical) or critical (critical only)
  --filter F           only reports the list's filter picks, e.g. mode[eq]airFreight
  --custom-fields C    only reports with these custom field values, e.g. product[eq]vaccine
  --channels C,C       email, desktop, webhook (default email,desktop)

examples:
  labeldesk alarms add-rule --db site.db --company acme --name "Air freight critical" --level critical \\
      --filter 'mode[eq]airFreight' --step anna,qa@acme.example --step lead@acme.example --escalate-after 120
  labeldesk alarms list --db site.db --company acme --state open
`,
  run(argv: string[], io: Io): Promise<number> {
    return runSubcommand(this, { rules, 'add-rule': addRule, 'remove-rule': removeRule, list, email }, argv, io);
  },
};

const actingFor = (companyId: string): Caller => ({ keyId: 'command line', companyId, permissions: new Set(['labelReports:read', 'webhooks:manage']) });

function company(service: Service, id: string | undefined): string {
  if (id === undefined) throw new UsageError('which company? give --company ID');
  if (!service.companies.find(id)) throw new CliError(unknownCompany(id, service.companies));
  return id;
}

async function rules(argv: string[], io: Io): Promise<number> {
  const { values } = parseCommandArgs(argv, { db: { type: 'string' }, company: { type: 'string' } }, false);
  return withCliService(values.db, (service) => {
    const ids = values.company === undefined ? service.companies.all().map((c) => c.id) : [company(service, values.company)];
    const rows = ids.flatMap((companyId) =>
      service.alarms.rules(actingFor(companyId)).map((r) => [
        r.id,
        companyId,
        r.name,
        r.minLevel === 2 ? 'critical' : 'moderate',
        [r.filter, r.customFields].filter((c) => c !== '').join(' ') || '-',
        r.steps.map((s) => [...s.users, ...s.emails].join(',') || '-').join(' → '),
        r.channels.join(','),
        r.escalateAfterMinutes === null ? '-' : `${r.escalateAfterMinutes} min`,
        r.enabled ? 'yes' : 'no',
      ]),
    );
    write(io.out, table(['ID', 'COMPANY', 'NAME', 'LEVEL', 'CONDITIONS', 'STEPS', 'CHANNELS', 'ESCALATE', 'ENABLED'], rows));
    return EXIT_OK;
  });
}

async function addRule(argv: string[], io: Io): Promise<number> {
  const { values } = parseCommandArgs(
    argv,
    {
      db: { type: 'string' },
      company: { type: 'string' },
      name: { type: 'string' },
      level: { type: 'string' },
      step: { type: 'string', multiple: true },
      filter: { type: 'string' },
      'custom-fields': { type: 'string' },
      channels: { type: 'string' },
      'escalate-after': { type: 'string' },
    },
    false,
  );
  if (values.level !== 'moderate' && values.level !== 'critical') throw new UsageError('--level: moderate or critical');
  if (!values.step || values.step.length === 0) throw new UsageError('who is told? give --step LOGIN,ADDRESS');
  const escalate = values['escalate-after'] === undefined ? null : integerOption('--escalate-after', values['escalate-after'], 1, 10080);
  return withCliService(values.db, (service) => {
    const companyId = company(service, values.company);
    const steps = values.step!.map((step) => {
      const who = step.split(',').map((w) => w.trim()).filter((w) => w !== '');
      return { users: service.alarms.idsOfLogins(companyId, who.filter((w) => !w.includes('@'))), emails: who.filter((w) => w.includes('@')) };
    });
    const parsed = alarmRuleBodySchema.safeParse({
      name: values.name,
      minLevel: values.level === 'critical' ? 2 : 1,
      filter: values.filter,
      customFields: values['custom-fields'],
      steps,
      channels: (values.channels ?? 'email,desktop').split(',').map((c) => c.trim()),
      escalateAfterMinutes: escalate,
    });
    if (!parsed.success) throw new UsageError(describeZodError(parsed.error));
    const rule = service.alarms.createRule(null, companyId, parsed.data);
    write(io.out, `created the alarm rule ${rule.id} (${rule.name}) for ${companyId}`);
    return EXIT_OK;
  });
}

async function removeRule(argv: string[], io: Io): Promise<number> {
  const { values, positionals } = parseCommandArgs(argv, { db: { type: 'string' }, company: { type: 'string' } }, true);
  if (positionals.length !== 1) throw new UsageError("which rule? give its id (see 'labeldesk alarms rules')");
  return withCliService(values.db, (service) => {
    service.alarms.removeRule(actingFor(company(service, values.company)), positionals[0]);
    write(io.out, `removed the alarm rule ${positionals[0]}`);
    return EXIT_OK;
  });
}

async function list(argv: string[], io: Io): Promise<number> {
  const { values } = parseCommandArgs(argv, { db: { type: 'string' }, company: { type: 'string' }, state: { type: 'string' }, report: { type: 'string' } }, false);
  const state = values.state;
  if (state !== undefined && !(ALARM_STATES as readonly string[]).includes(state)) throw new UsageError(`--state: one of ${ALARM_STATES.join(', ')}`);
  return withCliService(values.db, (service) => {
    const caller = actingFor(company(service, values.company));
    const page = service.alarms.list(caller, { state: state as (typeof ALARM_STATES)[number] | undefined, reportId: values.report, pageNumber: 1, pageSize: 1000 });
    const rows = page.alarms.map((a) => [
      a.id,
      a.created,
      levelName(a.level),
      a.labelReference,
      a.state + (a.acknowledged ? ` by ${a.acknowledged.by}` : ''),
      a.ruleName ?? a.ruleId,
      a.notices.map((n) => `${n.channel}:${n.recipient}`).join(', ') || '-',
    ]);
    write(io.out, table(['ID', 'RAISED', 'LEVEL', 'REPORT', 'STATE', 'RULE', 'TOLD'], rows));
    write(io.out, `${page.totalDocuments} alarms, ${page.unacknowledged} not acknowledged`);
    return EXIT_OK;
  });
}

async function email(argv: string[], io: Io): Promise<number> {
  const { values } = parseCommandArgs(argv, { db: { type: 'string' }, company: { type: 'string' }, login: { type: 'string' }, email: { type: 'string' } }, false);
  if (values.login === undefined) throw new UsageError('whose address? give --login LOGIN');
  if (values.email === undefined) throw new UsageError("which address? give --email ADDRESS, or 'none'");
  const address = values.email === 'none' ? null : values.email;
  if (address !== null && !/^[^\s@]+@[^\s@]+$/.test(address)) throw new UsageError(`--email '${address}': not an e-mail address`);
  return withCliService(values.db, (service) => {
    service.alarms.setEmail(null, company(service, values.company), values.login!, address);
    write(io.out, address === null ? `${values.login} gets no alarm e-mails` : `alarm e-mails reach ${values.login} at ${address}`);
    return EXIT_OK;
  });
}
