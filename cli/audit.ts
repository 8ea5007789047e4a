/**
 * `labeldesk audit verify|export|sign|checkpoints|certificate`: the audit trail's hash chains
 * checked, also against the signed checkpoints; the trail as CSV; a checkpoint signed now; the
 * checkpoints and their public key for an auditor; a release certificate checked by its checksum (docs/review-and-audit.md#how-an-auditor-checks-the-trail).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { checkpointLine } from '../db/audit-checkpoints';
import { AuditKeyError, keyFingerprint, type CheckpointBody } from '../service/audit-checkpoints';
import { signatureWords } from '../service/release-certificate';
import { CSV_BOM } from '../service/report-csv';
import {
  CliError,
  databaseFile,
  EXIT_FAILURE,
  EXIT_OK,
  openCliService,
  parseCommandArgs,
  plural,
  runSubcommand,
  UsageError,
  write,
  type Command,
  type Io,
} from './args';

const USAGE = [
  'labeldesk audit verify [--db FILE] [--public-key KEY.pem]',
  'labeldesk audit export [--db FILE] [--report ID | --access]',
  'labeldesk audit sign [--db FILE]',
  'labeldesk audit checkpoints [--db FILE] [--out FILE] [--key-out KEY.pem]',
  'labeldesk audit certificate [--db FILE] CHECKSUM',
].join('\n       ');

/** A certificate this desk issued whose report moved since. */
export const EXIT_CERTIFICATE_CHANGED = 3;
/** A checksum no certificate of this desk carries. */
export const EXIT_CERTIFICATE_UNKNOWN = 4;

const PROBLEM_WORDS = {
  contentChanged: 'content changed',
  brokenLink: 'broken link',
  missingEntry: 'missing entry',
  unsealed: 'no hash',
} as const;

export const auditCommand: Command = {
  name: 'audit',
  summary: 'verify the audit trail against its signed checkpoints, export it as CSV, sign and export checkpoints',
  usage: USAGE,
  help: `usage: ${USAGE}

  verify       checks every report's hash chains (its change log, its review entries) and the chain
               of who viewed, printed or exported which report, and names the first broken entry
               of each: content changed, broken link, missing entry or no hash.
               Then holds the chains to the signed checkpoints (in the database and in the file
               beside it, FILE.checkpoints.jsonl) and names, one line each, entries missing at a
               chain's end, chains recomputed, checkpoints whose signature fails or that another
               key signed, and checkpoints deleted. Exit 0 when all holds, 1 when anything does not.
  export       writes every change log and review entry, with its hashes, as CSV to standard output;
               with --access, every entry of who viewed, printed or exported which report instead
  sign         signs a checkpoint of every chain now, with the key file beside the database
               (FILE.audit-key, made with mode 0600 at the first checkpoint)
  checkpoints  writes the public key and every checkpoint as JSON lines: the first line holds the
               key (PEM) and its fingerprint, each next one a checkpoint: seq, at, hash, the body
               its signature covers, the signature (base64)
  certificate  says whether the release certificate with this checksum (printed at the head of
               each of its pages) was issued by this desk and still stands: "genuine, current"
               (exit 0); "genuine, but the report changed after it was issued" with what changed,
               a decision withdrawn or replaced, limits or other fields changed (exit ${EXIT_CERTIFICATE_CHANGED});
               "unknown: not issued by this desk" (exit ${EXIT_CERTIFICATE_UNKNOWN})

options:
  --db FILE           the database (default: the per-user data folder)
  --report ID         only this report's entries (export)
  --access            the record of who viewed, printed or exported which report (export)
  --public-key PEM    hold the checkpoints to this public key, kept apart from the database (verify)
  --out FILE          where to write the checkpoints (default: standard output)
  --key-out KEY.pem   also write the public key alone, as PEM (checkpoints)

examples:
  labeldesk audit verify --db labeldesk.db
  labeldesk audit export --db labeldesk.db --report 7f3c... > trail.csv
  labeldesk audit export --db labeldesk.db --access > access.csv
  labeldesk audit checkpoints --db labeldesk.db --out checkpoints.jsonl --key-out audit-key.pem
  labeldesk audit certificate --db labeldesk.db 9f2c…(64 hex digits)
`,
  run(argv: string[], io: Io): Promise<number> {
    return runSubcommand(this, { verify, export: exportTrail, sign, checkpoints, certificate }, argv, io);
  },
};

async function verify(argv: string[], io: Io): Promise<number> {
  const { values } = parseCommandArgs(argv, { db: { type: 'string' }, 'public-key': { type: 'string' } }, false);
  const trusted = values['public-key'] === undefined ? undefined : readPublicKey(values['public-key']);
  const service = openCliService(databaseFile(values.db), 'existing');
  try {
    const result = service.audit.verify();
    const access = service.access.verify();
    const signed = service.audit.checkpoints.verify(trusted);
    const against = signed.checkpoints === 0 ? '' : ` against ${plural(signed.checkpoints, 'checkpoint', 'checkpoints')}`;
    // The access chain is one chain more, of the whole table, once it has an entry.
    const accessChains = access.checked > 0 || access.problem ? 1 : 0;
    const counted = `${plural(result.checked + access.checked, 'entry', 'entries')} in ${plural(result.chains + accessChains, 'chain', 'chains')} checked${against}`;
    const brokenChains = result.problems.length + (access.problem ? 1 : 0);
    if (brokenChains === 0 && signed.findings.length === 0) {
      write(io.out, `${counted}: the audit trail is sound`);
      if (signed.newest !== null) {
        write(io.out, `the newest checkpoint is ${signed.newest.seq} of ${signed.newest.at}, signed by the audit key ${signed.fingerprint}`);
      } else {
        write(io.out, "no checkpoint is signed yet: until one is, a chain's newest entries can be deleted unseen (labeldesk audit sign)");
      }
      return EXIT_OK;
    }
    const broken = [
      brokenChains > 0 ? `${plural(brokenChains, 'chain is', 'chains are')} broken` : null,
      signed.findings.length > 0 ? `${plural(signed.findings.length, 'finding', 'findings')} against the checkpoints` : null,
    ].filter((part) => part !== null);
    write(io.out, `${counted}: ${broken.join(', ')}`);
    for (const p of result.problems) {
      const entry = p.table === 'change_log' ? `change_log seq ${p.entry}` : `report_reviews id ${p.entry}`;
      write(io.out, `report ${p.reportId}, ${entry}: ${PROBLEM_WORDS[p.kind]}: ${p.detail}`);
    }
    if (access.problem) write(io.out, `report_access id ${access.problem.id}: ${PROBLEM_WORDS[access.problem.kind]}: ${access.problem.detail}`);
    for (const f of signed.findings) write(io.out, f.message);
    return EXIT_FAILURE;
  } finally {
    service.close();
  }
}

function readPublicKey(file: string): string {
  let pem: string;
  try {
    pem = readFileSync(file, 'utf8');
    keyFingerprint(pem);
  } catch (err) {
    throw new CliError(`--public-key ${file}: no public key can be read from it: ${(err as Error).message}`);
  }
  return pem;
}

async function sign(argv: string[], io: Io): Promise<number> {
  const { values } = parseCommandArgs(argv, { db: { type: 'string' } }, false);
  const service = openCliService(databaseFile(values.db), 'existing');
  try {
    let signed;
    try {
      signed = service.audit.checkpoint();
    } catch (err) {
      if (err instanceof AuditKeyError) throw new CliError(`no checkpoint was signed: ${err.message}`);
      throw err;
    }
    const body = JSON.parse(signed.body) as CheckpointBody;
    const moved = Object.values(body.chains).reduce((n, chains) => n + chains.length, 0);
    write(io.out, `checkpoint ${signed.seq} of ${signed.at} signed by the audit key ${keyFingerprint(body.publicKey)}: ${plural(moved, 'chain', 'chains')} named`);
    return EXIT_OK;
  } finally {
    service.close();
  }
}

async function checkpoints(argv: string[], io: Io): Promise<number> {
  const { values } = parseCommandArgs(argv, { db: { type: 'string' }, out: { type: 'string' }, 'key-out': { type: 'string' } }, false);
  const service = openCliService(databaseFile(values.db), 'existing');
  try {
    const history = service.audit.checkpoints.history();
    if (history.publicKey === null) throw new CliError('the database has no checkpoint yet (labeldesk audit sign signs one)');
    const text = [JSON.stringify({ publicKey: history.publicKey, fingerprint: history.fingerprint }), ...history.checkpoints.map(checkpointLine)].join('\n') + '\n';
    if (values['key-out'] !== undefined) writeFileSync(values['key-out'], history.publicKey);
    if (values.out !== undefined) writeFileSync(values.out, text);
    else io.out.write(text);
    return EXIT_OK;
  } finally {
    service.close();
  }
}

async function exportTrail(argv: string[], io: Io): Promise<number> {
  const { values } = parseCommandArgs(argv, { db: { type: 'string' }, report: { type: 'string' }, access: { type: 'boolean' } }, false);
  if (values.access && values.report !== undefined) throw new UsageError('give --report or --access, not both');
  const service = openCliService(databaseFile(values.db), 'existing');
  try {
    io.out.write(CSV_BOM);
    for (const line of values.access ? service.access.csv() : service.audit.csv(values.report)) io.out.write(line);
    return EXIT_OK;
  } finally {
    service.close();
  }
}

async function certificate(argv: string[], io: Io): Promise<number> {
  const { values, positionals } = parseCommandArgs(argv, { db: { type: 'string' } }, true);
  if (positionals.length !== 1) throw new UsageError('which certificate? give its checksum (64 hexadecimal digits, at the head of each page)');
  if (!/^[0-9a-f]{64}$/i.test(positionals[0].trim())) throw new UsageError(`'${positionals[0]}' is no certificate checksum: it has 64 hexadecimal digits (SHA-256)`);
  const service = openCliService(databaseFile(values.db), 'existing');
  try {
    const check = service.certificates.check(positionals[0]);
    if (check.verdict === 'unknown') {
      write(io.out, `unknown: ${check.reason}`);
      return EXIT_CERTIFICATE_UNKNOWN;
    }
    const { record, issued } = check;
    const of = `the release certificate of report ${issued.reference ? `${issued.reference} (${record.reportId})` : record.reportId}, issued by ${issued.who} at ${issued.at} (access entry ${issued.entry})`;
    const signed = record.signatures.length === 0 ? 'no signature stood on it' : record.signatures.map(signatureWords).join('; ');
    if (check.verdict === 'current') {
      write(io.out, `genuine, current: ${of}`);
      write(io.out, `it certifies: ${signed}`);
      return EXIT_OK;
    }
    write(io.out, `genuine, but the report changed after it was issued (${check.changes.join('; ')}): ${of}`);
    write(io.out, `it certified: ${signed}`);
    return EXIT_CERTIFICATE_CHANGED;
  } finally {
    service.close();
  }
}
