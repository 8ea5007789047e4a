/** `labeldesk keys create|list|revoke`: local API keys. The key itself is shown once, at creation. */
import { Refusal } from '../model/errors';
import { PERMISSIONS, type Permission } from '../schema/report';
import type { Service } from '../host/open-service';
import {
  CliError,
  databaseFile,
  EXIT_OK,
  openCliService,
  parseCommandArgs,
  runSubcommand,
  table,
  UsageError,
  write,
  type Command,
  type Io,
} from './args';

const USAGE = [
  'labeldesk keys create [--db FILE] --company ID [--name NAME] [--permissions P,P]',
  'labeldesk keys list [--db FILE] [--company ID]',
  'labeldesk keys revoke [--db FILE] KEY_ID',
].join('\n       ');

const DEFAULT_PERMISSIONS: Permission[] = ['labelReports:read'];

export const keysCommand: Command = {
  name: 'keys',
  summary: 'create, list and revoke API keys',
  usage: USAGE,
  help: `usage: ${USAGE}

  create   makes a key for a company and prints it once: only its hash is stored
  list     shows every key (id, company, name, permissions, created, revoked), never the key
  revoke   revokes a key by its id; it answers 401 from then on

options:
  --db FILE            the database (default: the per-user data folder)
  --company ID         the company the key belongs to (create), or whose keys to list
  --name NAME          a name to recognise the key by (create)
  --permissions P,P    comma separated, from ${PERMISSIONS.join(', ')}
                       (create; default ${DEFAULT_PERMISSIONS.join(',')})

examples:
  labeldesk keys create --db labeldesk.db --company acme --name "ERP sync" --permissions labelReports:read,labelReports:update
  labeldesk keys list --db labeldesk.db
  labeldesk keys revoke --db labeldesk.db 0b6c1f0e-8a5e-4f8e-9f43-2f1f7c3f9a10
`,
  run(argv: string[], io: Io): Promise<number> {
    return runSubcommand(this, { create, list, revoke }, argv, io);
  },
};

function open(dbOption: string | undefined): Service {
  return openCliService(databaseFile(dbOption), 'existing');
}

async function create(argv: string[], io: Io): Promise<number> {
  const { values } = parseCommandArgs(
    argv,
    {
      db: { type: 'string' },
      company: { type: 'string' },
      name: { type: 'string' },
      permissions: { type: 'string' },
    },
    false,
  );
  if (values.company === undefined || values.company === '') throw new UsageError('which company? give --company ID');
  const permissions = values.permissions === undefined ? DEFAULT_PERMISSIONS : parsePermissions(values.permissions);
  const name = values.name?.trim() ? values.name.trim() : null;
  const service = open(values.db);
  const { companies, apiKeys } = service;
  try {
    const company = companies.find(values.company);
    if (!company) throw new CliError(unknownCompany(values.company, companies));
    let created;
    try {
      created = apiKeys.create(company.id, permissions, name);
    } catch (err) {
      if (err instanceof Refusal) throw new CliError(err.message);
      throw err;
    }
    write(
      io.out,
      [
        `created an API key for ${company.name} (${company.id})`,
        `id:          ${created.id}`,
        `name:        ${created.name ?? '-'}`,
        `permissions: ${created.permissions.join(',')}`,
        `key:         ${created.key}`,
        'The key is shown only this once: only its hash is stored. Keep it somewhere safe.',
      ].join('\n'),
    );
    return EXIT_OK;
  } finally {
    service.close();
  }
}

async function list(argv: string[], io: Io): Promise<number> {
  const { values } = parseCommandArgs(
    argv,
    { db: { type: 'string' }, company: { type: 'string' } },
    false,
  );
  const service = open(values.db);
  const { companies, apiKeys } = service;
  try {
    if (values.company !== undefined && !companies.find(values.company)) throw new CliError(unknownCompany(values.company, companies));
    const keys = apiKeys.list(values.company);
    if (keys.length === 0) {
      write(io.out, values.company === undefined ? 'no API keys' : `no API keys for ${values.company}`);
      return EXIT_OK;
    }
    write(
      io.out,
      table(
        ['ID', 'COMPANY', 'NAME', 'PERMISSIONS', 'CREATED', 'REVOKED'],
        keys.map((k) => [k.id, k.companyId, k.name ?? '-', k.permissions.join(','), k.created, k.revoked ?? '-']),
      ),
    );
    return EXIT_OK;
  } finally {
    service.close();
  }
}

async function revoke(argv: string[], io: Io): Promise<number> {
  const { values, positionals } = parseCommandArgs(argv, { db: { type: 'string' } }, true);
  if (positionals.length !== 1) {
    throw new UsageError(positionals.length === 0 ? "which key? give its id (see 'labeldesk keys list')" : 'give one key id');
  }
  const id = positionals[0];
  const service = open(values.db);
  const { apiKeys } = service;
  try {
    const existing = apiKeys.list().find((k) => k.id === id);
    if (!existing) throw new CliError(`there is no API key with id '${id}' (see 'labeldesk keys list')`);
    if (existing.revoked !== null) throw new CliError(`the API key ${id} was already revoked at ${existing.revoked}`);
    if (!apiKeys.revoke(id)) throw new CliError(`the API key ${id} could not be revoked`);
    write(io.out, `revoked the API key ${id} of ${existing.companyId}${existing.name ? ` (${existing.name})` : ''}`);
    return EXIT_OK;
  } finally {
    service.close();
  }
}

function parsePermissions(text: string): Permission[] {
  const names = text
    .split(',')
    .map((p) => p.trim())
    .filter((p) => p !== '');
  if (names.length === 0) throw new UsageError(`--permissions needs at least one of ${PERMISSIONS.join(', ')}`);
  for (const name of names) {
    if (!(PERMISSIONS as readonly string[]).includes(name)) {
      throw new UsageError(`unknown permission '${name}': choose from ${PERMISSIONS.join(', ')}`);
    }
  }
  return [...new Set(names)] as Permission[];
}

export function unknownCompany(id: string, companies: Service['companies']): string {
  const known = companies.all().map((c) => c.id);
  return `unknown company '${id}'${known.length ? ` (companies: ${known.join(', ')})` : ' (the database has no companies yet)'}`;
}
