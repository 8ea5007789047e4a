/**
 * Numbered, append-only: a shipped migration is never edited, a new one is added. Its SQL is
 * written out as it shipped and imports nothing; the live declarations are in db/read-model/.
 *
 * The sync push is a job queue (jobs/job-queue.ts) on the outbox: an entry being pushed is
 * leased, so that a second process on the file does not send it at the same time, and the
 * attempts that failed on the way are counted. A process that dies holding a lease leaves it to
 * be freed at the next drain (its pid no longer runs) or to run out.
 */
export default /* sql */ `
ALTER TABLE sync_outbox ADD COLUMN attempts INTEGER NOT NULL DEFAULT 0; -- failed attempts since the entry last went out whole
ALTER TABLE sync_outbox ADD COLUMN lease_until TEXT;
ALTER TABLE sync_outbox ADD COLUMN lease_pid INTEGER;
CREATE INDEX sync_outbox_leased ON sync_outbox(lease_pid) WHERE lease_pid IS NOT NULL;
`;
