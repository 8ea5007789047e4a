/**
 * Numbered, append-only: a shipped migration is never edited, a new one is added. Its SQL is
 * written out as it shipped and imports nothing; the live declarations are in db/read-model/.
 *
 * People from a hub (docs/sync.md#a-hub-for-a-team). On every desk, `people_order` numbers each
 * person's latest change of what travels (login, name, role, e-mail, password and its flags,
 * disabled), so a desk served as a hub hands out its people in that order; `password_seq` is the
 * number of the person's latest password change, against which a desk's change is judged. On a
 * desk that syncs with a hub, `hub_people` names the people the hub gave and at which of its
 * numbers, `hub_password_outbox` the password changes made here and not yet taken by the hub,
 * and `hub_state` how far the desk has read the hub's people.
 */
export default /* sql */ `
CREATE TABLE people_order (
  user_id      TEXT PRIMARY KEY,
  seq          INTEGER NOT NULL UNIQUE,
  password_seq INTEGER NOT NULL
) STRICT;
INSERT INTO people_order (user_id, seq, password_seq)
  SELECT id, row_number() OVER (ORDER BY created, id), row_number() OVER (ORDER BY created, id) FROM users;
CREATE TRIGGER people_order_insert AFTER INSERT ON users BEGIN
  INSERT OR REPLACE INTO people_order (user_id, seq, password_seq)
    VALUES (new.id, (SELECT COALESCE(MAX(seq), 0) + 1 FROM people_order), (SELECT COALESCE(MAX(seq), 0) + 1 FROM people_order));
END;
CREATE TRIGGER people_order_update AFTER UPDATE ON users
  WHEN new.login IS NOT old.login OR new.name IS NOT old.name OR new.role IS NOT old.role OR new.email IS NOT old.email
    OR new.password_hash IS NOT old.password_hash OR new.password_changed IS NOT old.password_changed
    OR new.password_change_due IS NOT old.password_change_due OR new.disabled_at IS NOT old.disabled_at
BEGIN
  UPDATE people_order
     SET password_seq = CASE WHEN new.password_hash IS NOT old.password_hash THEN (SELECT MAX(seq) + 1 FROM people_order) ELSE password_seq END,
         seq = (SELECT MAX(seq) + 1 FROM people_order)
   WHERE user_id = new.id;
END;
CREATE TRIGGER people_order_delete AFTER DELETE ON users BEGIN
  DELETE FROM people_order WHERE user_id = old.id;
END;

CREATE TABLE hub_people (
  user_id TEXT PRIMARY KEY,
  hub_password_seq INTEGER NOT NULL -- the hub's password_seq of the version held here
) STRICT;

CREATE TABLE hub_password_outbox (
  user_id             TEXT PRIMARY KEY,
  password_hash       TEXT NOT NULL,
  password_changed    TEXT NOT NULL,
  password_change_due TEXT,
  based_on            INTEGER NOT NULL,
  queued              TEXT NOT NULL
) STRICT;

CREATE TABLE hub_state (
  id           INTEGER PRIMARY KEY CHECK (id = 1),
  people_after INTEGER NOT NULL DEFAULT 0
) STRICT;
INSERT INTO hub_state (id) VALUES (1);
`;
