/**
 * Numbered, append-only: a shipped migration is never edited, a new one is added. Its SQL is
 * written out as it shipped and imports nothing; the live declarations are in db/read-model/.
 *
 * Reports the remote sent that the mirror did not take (another report's id, a shape or a
 * limit the local API would refuse, an access list that contradicts itself), with the reason
 * a person reads in the sync settings. One row per report: the latest refusal; it leaves when
 * the report is taken or the remote no longer shows it.
 */
export default /* sql */ `
CREATE TABLE sync_refused (
  label_report_id TEXT PRIMARY KEY,
  reason          TEXT NOT NULL,
  at              TEXT NOT NULL
) STRICT, WITHOUT ROWID;
CREATE INDEX sync_refused_at ON sync_refused(at, label_report_id);
`;
