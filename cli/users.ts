/**
 * `labeldesk users create|list|disable|enable|unlock|reset-password`: the people who sign in at
 * the desk, managed by whoever holds the database file (the first administrator is made here on
 * a headless service). A password is never taken from the command line, where the shell's history
 * and the process list would keep it: it comes from a file's first line, or standard input.
 */
import { readFileSync } from 'node:fs';
import { Refusal } from '../model/errors';
import { USER_ROLES, type UserRole } from '../model/person';
import type { Service } from '../host/open-service';
import { CliError, databaseFile, EXIT_OK, openCliService, parseCommandArgs, runSubcommand, table, UsageError, write, type Command, type Io } from './args';
import { unknownCompany } from './keys';

const USAGE = [
  'labeldesk users create [--db FILE] --company ID --login LOGIN --name "PRINTED NAME" --role ROLE --password-file FILE|-',
  'labeldesk users list [--db FILE] [--company ID]',
  'labeldesk users disable|enable|unlock [--db FILE] LOGIN',
  'labeldesk users reset-password [--db FILE] LOGIN --password-file FILE|-',
].join('\n       ');

export const usersCommand: Command = {
  name: 'users',
  summary: 'create, list, disable, unlock people who sign in, and reset their passwords',
  usage: USAGE,
  help: `usage: ${USAGE}

  create          makes a person of a company who signs in at the desk
  list            shows every person (login, company, printed name, role, locked, disabled)
  disable|enable  stops a person signing in (their session ends), or lets them again
  unlock          unlocks an account locked after 5 failed sign-ins in a row
  reset-password  sets a person's password and ends their sessions; they choose their own at the
                  next sign-in (the company's changeAfterReset, on by default)

options:
  --db FILE             the database (default: the per-user data folder)
  --company ID          the person's company (create), or whose people to list
  --login LOGIN         what the person types to sign in: letters, digits, . _ @ -
  --name NAME           the printed name their signatures show
  --role ROLE           one of ${USER_ROLES.join(', ')}
  --password-file FILE  the password is the file's first line; '-' reads it from standard input.
                        Never an argument: the shell's history and the process list would keep it.
                        At least the company's passwordMinLength (10 by default). The person
                        chooses their own at the first sign-in (changeAtFirstSignIn, on by default).

examples:
  printf '%s\\n' "$PASSWORD" | labeldesk users create --db labeldesk.db --company acme --login anna --name "Anna Berg" --role admin --password-file -
  labeldesk users list --db labeldesk.db
  labeldesk users unlock --db labeldesk.db anna
`,
  run(argv: string[], io: Io): Promise<number> {
    return runSubcommand(this, { create, list, disable: toggle(true), enable: toggle(false), unlock, 'reset-password': resetPassword }, argv, io);
  },
};

function open(dbOption: string | undefined): Service {
  return openCliService(databaseFile(dbOption), 'existing');
}

/** The password from a file's first line, or from standard input for '-'. */
function readPassword(option: string | undefined): string {
  if (option === undefined || option === '') throw new UsageError("which password? give --password-file FILE, or '-' to read it from standard input");
  let text: string;
  try {
    text = readFileSync(option === '-' ? 0 : option, 'utf8');
  } catch (err) {
    throw new CliError(`cannot read the password from ${option === '-' ? 'standard input' : option}: ${(err as Error).message}`);
  }
  const password = text.split(/\r?\n/)[0];
  if (password === '') throw new CliError('the password is empty');
  return password;
}

/** A refusal of the rules is the command's failure, in its own words. */
function refused<T>(work: () => T): T {
  try {
    return work();
  } catch (err) {
    if (err instanceof Refusal) throw new CliError(err.message);
    throw err;
  }
}

function byLogin(service: Service, positionals: string[]): string {
  if (positionals.length !== 1) throw new UsageError(positionals.length === 0 ? "whose account? give the login (see 'labeldesk users list')" : 'give one login');
  const login = positionals[0].toLowerCase();
  const user = service.users.listAll().find((u) => u.login.toLowerCase() === login);
  if (!user) throw new CliError(`there is no user with login '${positionals[0]}' (see 'labeldesk users list')`);
  return user.id;
}

async function create(argv: string[], io: Io): Promise<number> {
  const { values } = parseCommandArgs(
    argv,
    {
      db: { type: 'string' },
      company: { type: 'string' },
      login: { type: 'string' },
      name: { type: 'string' },
      role: { type: 'string' },
      'password-file': { type: 'string' },
    },
    false,
  );
  if (!values.company) throw new UsageError('which company? give --company ID');
  if (!values.login) throw new UsageError('which login? give --login LOGIN');
  if (!values.name) throw new UsageError('what printed name? give --name NAME');
  if (!values.role || !(USER_ROLES as readonly string[]).includes(values.role)) throw new UsageError(`which role? give --role, one of ${USER_ROLES.join(', ')}`);
  const password = readPassword(values['password-file']);
  const service = open(values.db);
  try {
    const company = service.companies.find(values.company);
    if (!company) throw new CliError(unknownCompany(values.company, service.companies));
    const user = refused(() => service.users.create(null, company.id, { login: values.login!, name: values.name!, role: values.role as UserRole, password }));
    write(io.out, `created ${user.name} (${user.login}), ${user.role} of ${company.name} (${company.id})`);
    return EXIT_OK;
  } finally {
    service.close();
  }
}

async function list(argv: string[], io: Io): Promise<number> {
  const { values } = parseCommandArgs(argv, { db: { type: 'string' }, company: { type: 'string' } }, false);
  const service = open(values.db);
  try {
    if (values.company !== undefined && !service.companies.find(values.company)) throw new CliError(unknownCompany(values.company, service.companies));
    const users = service.users.listAll(values.company);
    if (users.length === 0) {
      write(io.out, values.company === undefined ? 'no users' : `no users of ${values.company}`);
      return EXIT_OK;
    }
    write(
      io.out,
      table(
        ['LOGIN', 'COMPANY', 'NAME', 'ROLE', 'LOCKED', 'DISABLED', 'CREATED'],
        users.map((u) => [u.login, u.companyId, u.name, u.role, u.locked ? 'yes' : 'no', u.disabled ? 'yes' : 'no', u.created]),
      ),
    );
    return EXIT_OK;
  } finally {
    service.close();
  }
}

function toggle(disabled: boolean) {
  return async (argv: string[], io: Io): Promise<number> => {
    const { values, positionals } = parseCommandArgs(argv, { db: { type: 'string' } }, true);
    const service = open(values.db);
    try {
      const user = refused(() => service.users.setDisabled(null, byLogin(service, positionals), disabled));
      write(io.out, `${disabled ? 'disabled' : 'enabled'} ${user.name} (${user.login})`);
      return EXIT_OK;
    } finally {
      service.close();
    }
  };
}

async function unlock(argv: string[], io: Io): Promise<number> {
  const { values, positionals } = parseCommandArgs(argv, { db: { type: 'string' } }, true);
  const service = open(values.db);
  try {
    const user = refused(() => service.users.unlock(null, byLogin(service, positionals)));
    write(io.out, `unlocked ${user.name} (${user.login})`);
    return EXIT_OK;
  } finally {
    service.close();
  }
}

async function resetPassword(argv: string[], io: Io): Promise<number> {
  const { values, positionals } = parseCommandArgs(argv, { db: { type: 'string' }, 'password-file': { type: 'string' } }, true);
  const password = readPassword(values['password-file']);
  const service = open(values.db);
  try {
    const user = refused(() => service.users.resetPassword(null, byLogin(service, positionals), password));
    write(io.out, `set a new password for ${user.name} (${user.login})`);
    return EXIT_OK;
  } finally {
    service.close();
  }
}
