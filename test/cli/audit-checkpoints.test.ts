/**
 * `labeldesk audit verify` against the signed checkpoints, on real files: each test makes its
 * own database, signs a checkpoint with `labeldesk audit sign` (the key file beside it), does
 * what someone holding the file could do behind the service's back, and reads what verify says.
 * A chain's newest entries deleted, a chain recomputed whole, a forged checkpoint, checkpoint rows
 * deleted and a key file others may read are each named; a sound trail exits 0.
 */
import { createHash, createPrivateKey, generateKeyPairSync, sign } from 'node:crypto';
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { entryHash, type Row } from '../../db/audit-chain';
import { openService } from '../../host/open-service';
import { serviceFile } from '../support/service-files';
import { COMPANIES, makeReport } from '../support/service-fixture';
import { REPO, runLabeldesk, runLabeldeskInProcess, runToEnd } from './run-labeldesk';

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'labeldesk-checkpoints-cli-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/**
 * r1: create (seq 1), limits (seq 3); r2: create (seq 2); r1's review: a comment (id 1), a
 * decision (id 2) and its withdrawal (id 3). The caller signs the checkpoint.
 */
function trail(): string {
  const service = serviceFile(dir, { now: () => new Date('2026-12-07T10:00:00.000Z') });
  for (const c of COMPANIES) service.companies.upsert(c);
  service.putReport(makeReport('r1'), { kind: 'import' });
  service.putReport(makeReport('r2'), { kind: 'import' });
  const tool = service.apiKeys.authenticate(service.apiKeys.create('acme', ['labelReports:read', 'labelReports:update'], 'ERP').key);
  service.reviews.comment(tool, 'r1', { text: 'pallet warm on top' });
  service.reviews.decide(tool, 'r1', { decision: 'rejected', reason: 'excursion' });
  service.reports.update(tool, 'r1', { limits: { minTemperature: 0, maxTemperature: 15 } }, 'spec allows 15');
  const file = service.file;
  service.close();
  return file;
}

/** The Node script of docs/review-and-audit.md#how-an-auditor-checks-the-trail, as written there. */
function auditorScript(): string {
  const doc = readFileSync(join(REPO, 'docs/review-and-audit.md'), 'utf8');
  const block = /```js\n(\/\/ check-checkpoint\.mjs\n[\s\S]*?)```/.exec(doc);
  if (!block) throw new Error('docs/review-and-audit.md holds no check-checkpoint.mjs block');
  return block[1];
}

function sql(file: string, fn: (db: Database.Database) => void): void {
  const db = new Database(file);
  try {
    fn(db);
  } finally {
    db.close();
  }
}

const verify = (file: string, ...more: string[]) => runLabeldeskInProcess(['audit', 'verify', '--db', file, ...more]);
const signNow = async (file: string) => {
  const signed = await runLabeldeskInProcess(['audit', 'sign', '--db', file]);
  expect(signed.stderr).toBe('');
  expect(signed.code).toBe(0);
  return signed;
};

it('signs a checkpoint with a key file of mode 0600 beside the database, and a sound trail exits 0 (the real command)', async () => {
  const file = trail();
  const signed = await runLabeldesk(dir, ['audit', 'sign', '--db', file]);
  expect(signed.stderr).toBe('');
  expect(signed.code).toBe(0);
  expect(signed.stdout).toMatch(/^checkpoint 1 of 2026-\S+Z signed by the audit key [0-9a-f]{64}: 3 chains named\n$/);
  expect(statSync(`${file}.audit-key`).mode & 0o777).toBe(0o600);
  expect(readFileSync(`${file}.checkpoints.jsonl`, 'utf8').trim().split('\n')).toHaveLength(1);

  const sound = await runLabeldesk(dir, ['audit', 'verify', '--db', file]);
  expect(sound.stderr).toBe('');
  expect(sound.code).toBe(0);
  expect(sound.stdout).toContain('6 entries in 3 chains checked against 1 checkpoint: the audit trail is sound');
  expect(sound.stdout).toMatch(/the newest checkpoint is 1 of \S+, signed by the audit key [0-9a-f]{64}/);

  // Entries written after the checkpoint are not yet signed, and not wrong.
  const service = openService(file);
  service.putReport(makeReport('r3'), { kind: 'import' });
  service.close();
  expect((await verify(file)).code).toBe(0);
});

it("finds the deletion of a chain's newest change log entry and names the entries missing", async () => {
  const file = trail();
  await signNow(file);
  sql(file, (db) => db.prepare('DELETE FROM change_log WHERE seq = 3').run());
  const found = await verify(file);
  expect(found.code).toBe(1);
  expect(found.stdout).toContain('5 entries in 3 chains checked against 1 checkpoint: 1 finding against the checkpoints');
  expect(found.stdout).toMatch(
    /^report r1: the change log ends at seq 1, but checkpoint 1 of 2026-\S+Z signed it at seq 3: 1 entry after seq 1 up to seq 3 is missing$/m,
  );
  expect(found.stdout.trim().split('\n')).toHaveLength(2);
});

it("finds the deletion of a chain's newest review entries", async () => {
  const file = trail();
  await signNow(file);
  sql(file, (db) => db.prepare('DELETE FROM report_reviews WHERE id >= 2').run());
  const found = await verify(file);
  expect(found.code).toBe(1);
  expect(found.stdout).toMatch(/^report r1: the review entries end at id 1, but checkpoint 1 of \S+ signed it at id 3: 2 entries after id 1 up to id 3 are missing$/m);
});

it('finds a whole report removed from the change log', async () => {
  const file = trail();
  await signNow(file);
  sql(file, (db) => db.prepare("DELETE FROM change_log WHERE label_report_id = 'r2'").run());
  const found = await verify(file);
  expect(found.code).toBe(1);
  expect(found.stdout).toMatch(/^report r2: the change log has no entries, but checkpoint 1 of \S+ signed 1 entry up to seq 2: all of them are missing$/m);
});

it('finds a chain recomputed whole, entries and hashes, that the hash chain alone passes', async () => {
  const file = trail();
  await signNow(file);
  sql(file, (db) => {
    // The decision rewritten, and every hash of r1's review chain after it made again, as the scheme says.
    db.prepare("UPDATE report_reviews SET decision = 'released', text = 'within budget' WHERE id = 2").run();
    let previous: string | null = null;
    for (const row of db.prepare("SELECT * FROM report_reviews WHERE label_report_id = 'r1' ORDER BY id").all() as Row[]) {
      const linked: Row = { ...row, prev_hash: previous };
      const hash = entryHash('report_reviews', linked);
      db.prepare('UPDATE report_reviews SET prev_hash = ?, hash = ? WHERE id = ?').run(previous, hash, row.id);
      previous = hash;
    }
  });
  const found = await verify(file);
  expect(found.code).toBe(1);
  // No chain is broken: only the checkpoint sees it.
  expect(found.stdout).toContain('6 entries in 3 chains checked against 1 checkpoint: 1 finding against the checkpoints');
  expect(found.stdout).toMatch(/^report r1: the review entries at id 3 hash to [0-9a-f]{12}, but checkpoint 1 of \S+ signed [0-9a-f]{12} there: the chain was recomputed or changed after it was signed$/m);
});

it('finds a signed entry removed and the chain written on after it, as the hash chain alone does not', async () => {
  const file = trail();
  await signNow(file);
  sql(file, (db) => db.prepare('DELETE FROM change_log WHERE seq = 3').run());
  // The service writes on: r1's next entry links to seq 1, and the next checkpoint signs the new head.
  const service = openService(file);
  const tool = service.apiKeys.authenticate(service.apiKeys.create('acme', ['labelReports:read', 'labelReports:update'], 'ERP 2').key);
  service.reports.update(tool, 'r1', { limits: { minTemperature: 0, maxTemperature: 16 } }, 'spec allows 16');
  service.close();
  await signNow(file);
  const found = await verify(file);
  expect(found.code).toBe(1);
  expect(found.stdout).toMatch(/^report r1: the change log has no seq 3, which checkpoint 1 of \S+ signed as its newest entry: it was removed$/m);
});

it('finds a forged checkpoint row: its body changed, or signed by another key', async () => {
  const file = trail();
  await signNow(file);
  sql(file, (db) => db.prepare("UPDATE audit_checkpoints SET body = replace(body, '\"r1\",2,3,', '\"r1\",1,1,') WHERE seq = 1").run());
  const changed = await verify(file);
  expect(changed.code).toBe(1);
  expect(changed.stdout).toContain('checkpoint 1 differs between the database and ');
  // The copy in the file still holds, and still names the chain.
  expect(changed.stdout).not.toContain('signature');

  // Forged in both: the database's row and the file's line, signed with a key the forger made.
  const forger = generateKeyPairSync('ed25519');
  const pem = forger.publicKey.export({ type: 'spki', format: 'pem' }) as string;
  const line = JSON.parse(readFileSync(`${file}.checkpoints.jsonl`, 'utf8').trim());
  const body = JSON.stringify({ ...JSON.parse(line.body), publicKey: pem });
  const signature = sign(null, Buffer.from(body), forger.privateKey).toString('base64');
  sql(file, (db) => db.prepare('UPDATE audit_checkpoints SET body = ?, signature = ? WHERE seq = 1').run(body, signature));
  writeFileSync(`${file}.checkpoints.jsonl`, `${JSON.stringify({ ...line, body, signature })}\n`);
  const other = await verify(file);
  expect(other.code).toBe(1);
  expect(other.stdout).toMatch(/^checkpoint 1 of \S+ is signed by another key \([0-9a-f]{64}\), not by this database's audit key \([0-9a-f]{64}\)$/m);

  // A signature made up: it verifies with no key.
  sql(file, (db) => db.prepare('UPDATE audit_checkpoints SET signature = ?').run(Buffer.alloc(64, 7).toString('base64')));
  writeFileSync(`${file}.checkpoints.jsonl`, `${JSON.stringify({ ...line, signature: Buffer.alloc(64, 7).toString('base64') })}\n`);
  const bad = await verify(file);
  expect(bad.code).toBe(1);
  expect(bad.stdout).toMatch(/^checkpoint 1 of \S+ has a signature that does not verify with the audit key \([0-9a-f]{64}\): it was changed or forged$/m);
});

it("finds the database's key replaced, with every checkpoint signed again, against the key the auditor kept", async () => {
  const file = trail();
  await signNow(file);
  const kept = join(dir, `kept-${Date.now()}.pem`);
  expect((await runLabeldeskInProcess(['audit', 'checkpoints', '--db', file, '--out', join(dir, 'cps.jsonl'), '--key-out', kept])).code).toBe(0);
  // Someone holding the file makes a key, puts it in the database and signs the checkpoint again, in both places.
  const forger = generateKeyPairSync('ed25519');
  const pem = forger.publicKey.export({ type: 'spki', format: 'pem' }) as string;
  const line = JSON.parse(readFileSync(`${file}.checkpoints.jsonl`, 'utf8').trim());
  const body = JSON.stringify({ ...JSON.parse(line.body), publicKey: pem });
  const signature = sign(null, Buffer.from(body), forger.privateKey).toString('base64');
  const hash = createHash('sha256').update(body).digest('hex');
  sql(file, (db) => {
    db.prepare('UPDATE audit_key SET public_key = ?').run(pem);
    db.prepare('UPDATE audit_checkpoints SET body = ?, signature = ?, hash = ? WHERE seq = 1').run(body, signature, hash);
  });
  writeFileSync(`${file}.checkpoints.jsonl`, `${JSON.stringify({ ...line, body, signature, hash })}\n`);
  // The database alone cannot tell; the auditor's copy of the key can.
  expect((await verify(file)).code).toBe(0);
  const found = await verify(file, '--public-key', kept);
  expect(found.code).toBe(1);
  expect(found.stdout).toMatch(/^the database's audit key \([0-9a-f]{64}\) is not the key given \([0-9a-f]{64}\)$/m);
  expect(found.stdout).toMatch(/^checkpoint 1 of \S+ is signed by another key/m);
});

it('finds checkpoint rows deleted from the database by the file beside it, and lines deleted from the file', async () => {
  const file = trail();
  await signNow(file);
  await signNow(file);
  await signNow(file);
  sql(file, (db) => db.prepare('DELETE FROM audit_checkpoints WHERE seq = 3').run());
  const newest = await verify(file);
  expect(newest.code).toBe(1);
  expect(newest.stdout).toMatch(/^checkpoint 3 of \S+ is missing from the database: deleted there, or LabelDesk was stopped while it signed it$/m);

  sql(file, (db) => db.prepare('DELETE FROM audit_checkpoints WHERE seq >= 2').run());
  const found = await verify(file);
  expect(found.code).toBe(1);
  expect(found.stdout).toContain('checked against 3 checkpoints: 1 finding against the checkpoints');
  expect(found.stdout).toMatch(/^checkpoints 2–3 of \S+\.checkpoints\.jsonl are missing from the database: deleted there$/m);

  sql(file, (db) => db.prepare('DELETE FROM audit_checkpoints').run());
  const all = await verify(file);
  expect(all.code).toBe(1);
  expect(all.stdout).toMatch(/^checkpoints 1–3 of \S+ are missing from the database: deleted there$/m);

  // The file shortened instead, the rows kept: told the other way round.
  const other = trail();
  await signNow(other);
  await signNow(other);
  const lines = readFileSync(`${other}.checkpoints.jsonl`, 'utf8').trim().split('\n');
  writeFileSync(`${other}.checkpoints.jsonl`, `${lines[0]}\n`);
  expect((await verify(other)).stdout).toMatch(/^checkpoint 2 of the database is missing from \S+: deleted there$/m);
  rmSync(`${other}.checkpoints.jsonl`);
  expect((await verify(other)).stdout).toMatch(/^the file beside the database, \S+, is missing: it held a copy of 2 checkpoints$/m);
});

it('finds every checkpoint deleted, rows and file, by the key the database still holds', async () => {
  const file = trail();
  await signNow(file);
  sql(file, (db) => db.prepare('DELETE FROM audit_checkpoints').run());
  rmSync(`${file}.checkpoints.jsonl`);
  const found = await verify(file);
  expect(found.code).toBe(1);
  expect(found.stdout).toMatch(/every checkpoint was deleted$/m);
});

it('refuses a key file others may read, saying so, and signs nothing (the real command)', async () => {
  const file = trail();
  await signNow(file);
  chmodSync(`${file}.audit-key`, 0o644);
  const refused = await runLabeldesk(dir, ['audit', 'sign', '--db', file]);
  expect(refused.code).toBe(1);
  expect(refused.stderr).toContain(`no checkpoint was signed: the audit key ${file}.audit-key has mode 0644, so others than its owner may read it`);
  expect(refused.stderr).toContain(`chmod 600 "${file}.audit-key"`);
  expect(readFileSync(`${file}.checkpoints.jsonl`, 'utf8').trim().split('\n')).toHaveLength(1);

  // A key file gone while the database's checkpoints name its key: no new key begun in its place.
  rmSync(`${file}.audit-key`);
  const gone = await runLabeldeskInProcess(['audit', 'sign', '--db', file]);
  expect(gone.code).toBe(1);
  expect(gone.stderr).toContain('LabelDesk does not begin another key on its own');
  expect(existsSync(`${file}.audit-key`)).toBe(false);
});

it('writes the public key and the checkpoints for an auditor, and one checkpoint verifies with a few lines of Node', async () => {
  const file = trail();
  await signNow(file);
  await signNow(file);
  const out = join(dir, `export-${Date.now()}.jsonl`);
  const keyOut = join(dir, `export-${Date.now()}.pem`);
  const exported = await runLabeldeskInProcess(['audit', 'checkpoints', '--db', file, '--out', out, '--key-out', keyOut]);
  expect(exported.code).toBe(0);
  const lines = readFileSync(out, 'utf8').trim().split('\n');
  expect(lines).toHaveLength(3);
  const head = JSON.parse(lines[0]);
  expect(head.publicKey).toBe(readFileSync(keyOut, 'utf8'));
  expect(head.fingerprint).toMatch(/^[0-9a-f]{64}$/);

  // The auditor's check, as docs/review-and-audit.md#how-an-auditor-checks-the-trail shows it.
  const script = join(dir, 'check-checkpoint.mjs');
  writeFileSync(script, auditorScript());
  const holds = await runToEnd(process.execPath, [script, keyOut, out, '2'], {});
  expect(holds.stdout).toBe('checkpoint 2 holds\n');
  expect(holds.code).toBe(0);
  const changed = JSON.parse(lines[2]);
  writeFileSync(out, [lines[0], lines[1], JSON.stringify({ ...changed, body: changed.body.replace('"seq":2', '"seq":2 ') })].join('\n'));
  const fails = await runToEnd(process.execPath, [script, keyOut, out, '2'], {});
  expect(fails.stdout).toBe('checkpoint 2 does not hold\n');
  expect(fails.code).toBe(1);
});

it('finds a checkpoint replaced or removed from both places, by the links between checkpoints', async () => {
  const file = trail();
  await signNow(file);
  await signNow(file);
  await signNow(file);
  // With the key file at hand, checkpoint 2 signed again naming another checkpoint before it.
  const key = createPrivateKey(readFileSync(`${file}.audit-key`, 'utf8'));
  const lines = readFileSync(`${file}.checkpoints.jsonl`, 'utf8').trim().split('\n').map((l) => JSON.parse(l));
  const body = JSON.stringify({ ...JSON.parse(lines[1].body), previous: 'f'.repeat(64) });
  const replaced = { ...lines[1], body, signature: sign(null, Buffer.from(body), key).toString('base64'), hash: createHash('sha256').update(body).digest('hex') };
  sql(file, (db) => db.prepare('UPDATE audit_checkpoints SET body = ?, signature = ?, hash = ? WHERE seq = 2').run(replaced.body, replaced.signature, replaced.hash));
  writeFileSync(`${file}.checkpoints.jsonl`, [lines[0], replaced, lines[2]].map((l) => JSON.stringify(l)).join('\n') + '\n');
  const found = await verify(file);
  expect(found.code).toBe(1);
  expect(found.stdout).toMatch(/^checkpoint 2 of \S+ names ffffffffffff as the checkpoint before it, but checkpoint 1 hashes to [0-9a-f]{12}: a checkpoint was replaced$/m);

  // Removed from the rows and the file alike: the numbers say so.
  sql(file, (db) => db.prepare('DELETE FROM audit_checkpoints WHERE seq = 2').run());
  writeFileSync(`${file}.checkpoints.jsonl`, [lines[0], lines[2]].map((l) => JSON.stringify(l)).join('\n') + '\n');
  const gap = await verify(file);
  expect(gap.code).toBe(1);
  expect(gap.stdout).toMatch(/^checkpoint 2 is missing from both the database and \S+$/m);
});
