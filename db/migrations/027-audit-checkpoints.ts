/**
 * Numbered, append-only: a shipped migration is never edited, a new one is added. Its SQL is
 * written out as it shipped and imports nothing; the live declarations are in db/read-model/.
 *
 * Signed checkpoints of the audit trail's hash chains (docs/review-and-audit.md#checkpoints):
 * the public half of the key that signs them, once, and each checkpoint as it was signed. A
 * checkpoint's body is the text its signature covers, kept byte for byte; its hash is SHA-256
 * over that text, and the next checkpoint's body names it. A copy of every row is appended to
 * the file beside the database (FILE.checkpoints.jsonl), so rows deleted here are seen there.
 */
export default /* sql */ `
CREATE TABLE audit_key (
  id         INTEGER PRIMARY KEY CHECK (id = 1), -- one key signs every checkpoint of this database
  public_key TEXT NOT NULL,                      -- PEM (SPKI) of the Ed25519 key
  created_at TEXT NOT NULL                       -- ISO 8601 UTC with ms
) STRICT;
CREATE TABLE audit_checkpoints (
  seq        INTEGER PRIMARY KEY,  -- 1, 2, 3 …: a gap is a checkpoint removed
  at         TEXT NOT NULL,        -- when it was signed, ISO 8601 UTC with ms (also in the body)
  body       TEXT NOT NULL,        -- the JSON text the signature covers, exactly as signed
  signature  TEXT NOT NULL,        -- Ed25519 over the body's UTF-8 bytes, base64
  hash       TEXT NOT NULL         -- SHA-256 of the body's UTF-8 bytes, hex
) STRICT;
`;
