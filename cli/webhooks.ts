/**
 * `labeldesk webhooks create|list|delete`: webhooks of any company of the file, for IT scripts.
 * The command line manages the file itself, so it acts for the company it names. The secret
 * is shown once, at creation.
 */
import { createWebhookBodySchema, DEFAULT_EVENT_TYPES, REPORT_EVENT_TYPES } from '../schema/webhooks';
import type { WebhookManager } from '../service/webhooks';
import { CliError, EXIT_OK, parseCommandArgs, runSubcommand, table, UsageError, withCliService, write, type Command, type Io } from './args';
import { unknownCompany } from './keys';

const USAGE = [
  'labeldesk webhooks create [--db FILE] --company ID --url URL [--events E,E] [--description TEXT]',
  'labeldesk webhooks list [--db FILE] [--company ID]',
  'labeldesk webhooks delete [--db FILE] WEBHOOK_ID',
].join('\n       ');

export const webhooksCommand: Command = {
  name: 'webhooks',
  summary: 'create, list and delete webhooks',
  usage: USAGE,
  help: `usage: ${USAGE}

  create   registers an endpoint for a company's report events and prints its signing
           secret once; the running service delivers to it (Standard Webhooks)
  list     shows every webhook (id, company, url, events, enabled, created), never a secret
  delete   removes a webhook with its pending messages and deliveries log

options:
  --db FILE            the database (default: the per-user data folder)
  --company ID         the company the webhook belongs to (create), or whose webhooks to list
  --url URL            where events are sent: http or https, loopback and LAN addresses allowed
  --events E,E         comma separated, from ${REPORT_EVENT_TYPES.join(', ')}
                       (create; default ${DEFAULT_EVENT_TYPES.join(',')})
  --description TEXT   what the webhook is for (create)

examples:
  labeldesk webhooks create --db labeldesk.db --company acme --url http://192.168.1.20:8080/labeldesk --events labelReport.tapped
  labeldesk webhooks list --db labeldesk.db --company acme
  labeldesk webhooks delete --db labeldesk.db 0b6c1f0e-8a5e-4f8e-9f43-2f1f7c3f9a10
`,
  run(argv: string[], io: Io): Promise<number> {
    return runSubcommand(this, { create, list, delete: remove }, argv, io);
  },
};

/** The command line manages the webhooks of whichever company it names. */
const actingFor = (companyId: string): WebhookManager => ({ companyId, permissions: new Set(['webhooks:manage']) });

async function create(argv: string[], io: Io): Promise<number> {
  const { values } = parseCommandArgs(
    argv,
    {
      db: { type: 'string' },
      company: { type: 'string' },
      url: { type: 'string' },
      events: { type: 'string' },
      description: { type: 'string' },
    },
    false,
  );
  if (!values.company) throw new UsageError('which company? give --company ID');
  if (!values.url) throw new UsageError('where to? give --url URL');
  const events = values.events === undefined ? [...DEFAULT_EVENT_TYPES] : values.events.split(',').map((e) => e.trim()).filter((e) => e !== '');
  const parsed = createWebhookBodySchema.safeParse({ url: values.url, events, description: values.description });
  if (!parsed.success) {
    // Named as the options were given: `--events 'foo': …`, not a JSON path.
    const problems = parsed.error.issues.map(({ path: [option, index], message }) => {
      const value = option === 'events' && typeof index === 'number' ? ` '${events[index]}'` : '';
      return `--${String(option)}${value}: ${message}`;
    });
    throw new UsageError(problems.join('; '));
  }
  const companyId = values.company;
  return withCliService(values.db, ({ companies, webhooks }) => {
    const company = companies.find(companyId);
    if (!company) throw new CliError(unknownCompany(companyId, companies));
    const created = webhooks.create(actingFor(company.id), parsed.data);
    write(
      io.out,
      [
        `created a webhook for ${company.name} (${company.id})`,
        `id:          ${created.id}`,
        `url:         ${created.url}`,
        `events:      ${created.events.join(',')}`,
        `secret:      ${created.secret}`,
        'The secret is shown only this once: receivers verify signatures with it. Keep it somewhere safe.',
      ].join('\n'),
    );
    return EXIT_OK;
  });
}

async function list(argv: string[], io: Io): Promise<number> {
  const { values } = parseCommandArgs(
    argv,
    { db: { type: 'string' }, company: { type: 'string' } },
    false,
  );
  return withCliService(values.db, ({ companies, webhooks }) => {
    const wanted = values.company;
    if (wanted !== undefined && !companies.find(wanted)) throw new CliError(unknownCompany(wanted, companies));
    const ids = wanted === undefined ? companies.all().map((c) => c.id) : [wanted];
    const rows = ids.flatMap((companyId) =>
      webhooks.list(actingFor(companyId)).map((w) => [
        w.id,
        companyId,
        w.url,
        w.events.join(','),
        w.enabled ? 'yes' : `no${w.disabledReason ? ` (${w.disabledReason})` : ''}`,
        w.created,
        w.description || '-',
      ]),
    );
    if (rows.length === 0) {
      write(io.out, wanted === undefined ? 'no webhooks' : `no webhooks for ${wanted}`);
      return EXIT_OK;
    }
    write(io.out, table(['ID', 'COMPANY', 'URL', 'EVENTS', 'ENABLED', 'CREATED', 'DESCRIPTION'], rows));
    return EXIT_OK;
  });
}

async function remove(argv: string[], io: Io): Promise<number> {
  const { values, positionals } = parseCommandArgs(argv, { db: { type: 'string' } }, true);
  if (positionals.length !== 1) {
    throw new UsageError(positionals.length === 0 ? "which webhook? give its id (see 'labeldesk webhooks list')" : 'give one webhook id');
  }
  const id = positionals[0];
  return withCliService(values.db, ({ webhooks }) => {
    const companyId = webhooks.companyOf(id);
    if (companyId === undefined) throw new CliError(`there is no webhook with id '${id}' (see 'labeldesk webhooks list')`);
    const { url } = webhooks.get(actingFor(companyId), id);
    webhooks.remove(actingFor(companyId), id);
    write(io.out, `deleted the webhook ${id} of ${companyId} (${url})`);
    return EXIT_OK;
  });
}
