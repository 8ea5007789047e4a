/**
 * Numbered, append-only: a shipped migration is never edited, a new one is added. Its SQL is
 * written out as it shipped and imports nothing; the live declarations are in db/read-model/.
 *
 * A mirrored report shows the remote's figures (docs/sync.md, "What the mirror holds"); after a
 * local edit of limits, trim or alert rules it shows figures recalculated here until the
 * remote's answer replaces them, and says which. Mirrors made before kept figures computed
 * here: they are marked so and fetched again at the next reconciliation.
 */
export default /* sql */ `
ALTER TABLE sync_mirror ADD COLUMN figures TEXT NOT NULL DEFAULT 'remote' CHECK (figures IN ('remote', 'local'));
UPDATE sync_mirror SET figures = 'local', remote_updated = NULL;
`;
