/**
 * `labeldesk smtp set|show|test`: the relay alarm e-mails go through. Its password is never
 * taken from argv nor written to the database: `serve` and `smtp test` read it from
 * LABELDESK_SMTP_PASSWORD or --password-file, as the sync key is read.
 */
import { readFileSync } from 'node:fs';
import { sendTestMail } from '../alarms/test-mail';
import { describeZodError } from '../contract/zod-messages';
import { smtpSettingsBodySchema, smtpTestBodySchema } from '../schema/alarms';
import { CliError, EXIT_FAILURE, EXIT_OK, integerOption, parseCommandArgs, runSubcommand, UsageError, withCliService, write, type Command, type Io } from './args';

export const SMTP_PASSWORD_ENV = 'LABELDESK_SMTP_PASSWORD';

/** The relay's password from the environment, or null when it is not set. */
export function smtpPasswordFrom(env: NodeJS.ProcessEnv, file?: string): string | null {
  if (file !== undefined) {
    try {
      return readFileSync(file === '-' ? 0 : file, 'utf8').split(/\r?\n/)[0];
    } catch (err) {
      throw new CliError(`cannot read the SMTP password from ${file}: ${(err as Error).message}`);
    }
  }
  const value = env[SMTP_PASSWORD_ENV];
  return value === undefined || value === '' ? null : value;
}

const USAGE = [
  'labeldesk smtp set [--db FILE] --host H --port N --security none|starttls|tls --from ADDRESS [--user U] [--app-url URL]',
  'labeldesk smtp show [--db FILE]',
  'labeldesk smtp test [--db FILE] --to ADDRESS [--password-file FILE]',
].join('\n       ');

export const smtpCommand: Command = {
  name: 'smtp',
  summary: 'set, show and test the SMTP relay alarm e-mails go through',
  usage: USAGE,
  help: `usage: ${USAGE}

  set    saves the relay's settings (the running service reads them at its next mail)
  show   prints them
  test   sends a test mail through the relay as set, and says what the relay answered

The password is never given on the command line nor kept in the database: set
${SMTP_PASSWORD_ENV} (or --password-file FILE, '-' for standard input) for 'smtp test' and
'serve'; the desktop app keeps it in the system's key store.

options:
  --db FILE            the database (default: the per-user data folder)
  --host H, --port N   the relay (587 with starttls, 465 with tls, 25 with none as usual)
  --security S         none, starttls (upgrade required) or tls (from the first byte)
  --user U             the login, when the relay asks for one
  --from ADDRESS       the sender of alarm e-mails
  --app-url URL        where a mail's link opens the report (default: the service's own address)
  --to ADDRESS         the test mail's recipient

examples:
  labeldesk smtp set --db site.db --host smtp.example.com --port 587 --security starttls --user alarms --from alarms@example.com
  ${SMTP_PASSWORD_ENV}=... labeldesk smtp test --db site.db --to qa@example.com
`,
  run(argv: string[], io: Io): Promise<number> {
    return runSubcommand(this, { set, show, test }, argv, io);
  },
};

async function set(argv: string[], io: Io): Promise<number> {
  const { values } = parseCommandArgs(
    argv,
    {
      db: { type: 'string' },
      host: { type: 'string' },
      port: { type: 'string' },
      security: { type: 'string' },
      user: { type: 'string' },
      from: { type: 'string' },
      'app-url': { type: 'string' },
    },
    false,
  );
  if (values.port === undefined) throw new UsageError('which port? give --port N');
  const parsed = smtpSettingsBodySchema.safeParse({
    host: values.host,
    port: integerOption('--port', values.port, 1, 65535),
    security: values.security,
    user: values.user ?? null,
    from: values.from,
    appUrl: values['app-url'] ?? null,
  });
  if (!parsed.success) throw new UsageError(describeZodError(parsed.error));
  return withCliService(values.db, (service) => {
    const saved = service.alarms.saveSmtp(null, parsed.data);
    write(io.out, `SMTP relay set: ${saved.host}:${saved.port} (${saved.security})${saved.user ? `, login ${saved.user}` : ''}, from ${saved.from}`);
    return EXIT_OK;
  });
}

async function show(argv: string[], io: Io): Promise<number> {
  const { values } = parseCommandArgs(argv, { db: { type: 'string' } }, false);
  return withCliService(values.db, (service) => {
    const smtp = service.alarms.smtpSettings(null);
    if (!smtp) {
      write(io.out, 'no SMTP relay is set');
      return EXIT_OK;
    }
    write(
      io.out,
      [`host:      ${smtp.host}`, `port:      ${smtp.port}`, `security:  ${smtp.security}`, `user:      ${smtp.user ?? '-'}`, `from:      ${smtp.from}`, `app url:   ${smtp.appUrl ?? '-'}`].join('\n'),
    );
    return EXIT_OK;
  });
}

async function test(argv: string[], io: Io): Promise<number> {
  const { values } = parseCommandArgs(argv, { db: { type: 'string' }, to: { type: 'string' }, 'password-file': { type: 'string' } }, false);
  if (values.to === undefined) throw new UsageError('to whom? give --to ADDRESS');
  const parsed = smtpTestBodySchema.safeParse({ to: values.to });
  if (!parsed.success) throw new UsageError(`--to '${values.to}': not an e-mail address`);
  const password = smtpPasswordFrom(process.env, values['password-file']);
  const smtp = withCliService(values.db, (service) => service.alarms.smtpRecord());
  if (!smtp) throw new CliError('no SMTP relay is set: labeldesk smtp set --host H --port N --security S --from ADDRESS');
  const result = await sendTestMail(smtp, password, parsed.data.to);
  if (!result.ok) {
    write(io.err, `labeldesk smtp test: ${result.message}`);
    return EXIT_FAILURE;
  }
  write(io.out, `sent ${result.messageId}: ${result.message}`);
  return EXIT_OK;
}
