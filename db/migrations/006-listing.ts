/**
 * Numbered, append-only: a shipped migration is never edited, a new one is added.
 *
 * A layout made for listing. `label_reports` keeps the whole report (wide JSON figures; the
 * datapoints stay in report_datapoints); beside it, SQLite itself keeps in step:
 * - integer keys for report and company ids, so the listing indexes hold small numbers;
 * - `report_listing`: one narrow row per (company, report) the company can see, with every
 *   allow-listed scalar of the list query and that company's flag and archive state, under
 *   indexes that lead with the company: a list query and its count read one company's range;
 * - `report_text`: a trigram index of the searchable texts, which narrows `like`, `ilike` and
 *   `includes` to the reports holding the pattern's literal runs;
 * - `custom_field_elements`: each custom field value as typed elements (an array gives one per
 *   element), so a custom field condition is an index search instead of JSON parsing.
 * `custom_field_values`, `access` and `company_report_state` stay the source of truth: the
 * triggers below derive everything here from them in the transaction that writes them, whatever
 * the order of the writes.
 */
import { BY_CREATED, ckOf, ensureCompanyKey, ensureReportKey, insertElements, insertListing, insertText, REPORT_SCALARS, rkOf } from '../read-model/listing';

export default /* sql */ `
-- Keys are never deleted: a report replaced by an import keeps its key.
CREATE TABLE report_keys (
  rk        INTEGER PRIMARY KEY,
  report_id TEXT NOT NULL UNIQUE
) STRICT;
CREATE TABLE company_keys (
  ck         INTEGER PRIMARY KEY,
  company_id TEXT NOT NULL UNIQUE
) STRICT;

CREATE TABLE report_listing (
  rk          INTEGER NOT NULL,
  ck          INTEGER NOT NULL,        -- the company that sees the report
  id          TEXT NOT NULL,           -- the report's id: the tiebreak of every order
  owner_ck    INTEGER NOT NULL,
  has_flag    INTEGER NOT NULL,        -- this company's own state
  is_archived INTEGER NOT NULL,
  ${REPORT_SCALARS.map(([column, type]) => `${column} ${type}`).join(',\n  ')},
  -- The company's rows lie together: a filter no index serves reads one range of the table.
  PRIMARY KEY (ck, rk)
) STRICT, WITHOUT ROWID;

CREATE VIRTUAL TABLE report_text USING fts5(
  label_reference, label_uid, label_sequence_code, label_name,
  content = '', contentless_delete = 1, tokenize = 'trigram case_sensitive 0'
);

CREATE TABLE custom_field_elements (
  rk    INTEGER NOT NULL,
  field TEXT NOT NULL,
  elem  INTEGER NOT NULL,              -- the element's json_each id within the value
  text  TEXT,                          -- a text element
  num   ANY,                           -- a number element, integer or real as stored
  PRIMARY KEY (rk, field, elem)
) STRICT, WITHOUT ROWID;

INSERT INTO report_keys (report_id) SELECT id FROM label_reports ORDER BY created, id;
INSERT OR IGNORE INTO company_keys (company_id)
  SELECT id FROM companies UNION SELECT company_id FROM access UNION SELECT owner_company_id FROM label_reports;
${insertListing('1')};
${insertText('1')};
${insertElements('1')};

CREATE INDEX listing_report ON report_listing (rk);
CREATE INDEX listing_created ON report_listing (ck, ${BY_CREATED});
CREATE INDEX listing_updated ON report_listing (ck, updated DESC, id);
CREATE INDEX listing_status_alert ON report_listing (ck, status, alert_level, ${BY_CREATED});
CREATE INDEX listing_alert ON report_listing (ck, alert_level, ${BY_CREATED});
CREATE INDEX listing_mode ON report_listing (ck, mode, ${BY_CREATED});
CREATE INDEX listing_type ON report_listing (ck, type, ${BY_CREATED});
CREATE INDEX listing_flag ON report_listing (ck, has_flag, ${BY_CREATED});
CREATE INDEX listing_archived ON report_listing (ck, is_archived, ${BY_CREATED});
CREATE INDEX listing_owner ON report_listing (ck, owner_ck, ${BY_CREATED});
CREATE INDEX custom_field_elements_text ON custom_field_elements (field, text) WHERE text IS NOT NULL;
CREATE INDEX custom_field_elements_num ON custom_field_elements (field, num) WHERE num IS NOT NULL;

-- The listing replaces these: text searches and the status filter read report_listing now.
DROP INDEX label_reports_reference;
DROP INDEX label_reports_sequence_code;
DROP INDEX label_reports_label_uid;
DROP INDEX label_reports_status_alert;

CREATE TRIGGER listing_report_insert AFTER INSERT ON label_reports BEGIN
  ${ensureReportKey('new.id')};
  ${ensureCompanyKey('new.owner_company_id')};
  ${insertListing('a.label_report_id = new.id')};
  ${insertText('r.id = new.id')};
END;

CREATE TRIGGER listing_report_update AFTER UPDATE ON label_reports BEGIN
  ${ensureCompanyKey('new.owner_company_id')};
  UPDATE report_listing SET
    owner_ck = ${ckOf('new.owner_company_id')},
    ${REPORT_SCALARS.map(([column, , value]) => `${column} = ${value('new')}`).join(',\n    ')}
  WHERE rk = ${rkOf('new.id')};
END;

CREATE TRIGGER listing_report_text_update
AFTER UPDATE OF label_reference, label_uid, label_sequence_code, label_name ON label_reports BEGIN
  DELETE FROM report_text WHERE rowid = ${rkOf('old.id')};
  ${insertText('r.id = new.id')};
END;

CREATE TRIGGER listing_report_delete AFTER DELETE ON label_reports BEGIN
  DELETE FROM report_listing WHERE rk = ${rkOf('old.id')};
  DELETE FROM report_text WHERE rowid = ${rkOf('old.id')};
  DELETE FROM custom_field_elements WHERE rk = ${rkOf('old.id')};
END;

CREATE TRIGGER listing_access_insert AFTER INSERT ON access BEGIN
  ${ensureCompanyKey('new.company_id')};
  ${insertListing('a.id = new.id')};
END;

CREATE TRIGGER listing_access_update AFTER UPDATE ON access BEGIN
  DELETE FROM report_listing WHERE rk = ${rkOf('old.label_report_id')} AND ck = ${ckOf('old.company_id')};
  ${ensureCompanyKey('new.company_id')};
  ${insertListing('a.id = new.id')};
END;

CREATE TRIGGER listing_access_delete AFTER DELETE ON access BEGIN
  DELETE FROM report_listing WHERE rk = ${rkOf('old.label_report_id')} AND ck = ${ckOf('old.company_id')};
END;

CREATE TRIGGER listing_state_insert AFTER INSERT ON company_report_state BEGIN
  UPDATE report_listing SET has_flag = new.has_flag, is_archived = new.is_archived
  WHERE rk = ${rkOf('new.label_report_id')} AND ck = ${ckOf('new.company_id')};
END;

CREATE TRIGGER listing_state_update AFTER UPDATE ON company_report_state BEGIN
  UPDATE report_listing SET has_flag = 0, is_archived = 0
  WHERE rk = ${rkOf('old.label_report_id')} AND ck = ${ckOf('old.company_id')};
  UPDATE report_listing SET has_flag = new.has_flag, is_archived = new.is_archived
  WHERE rk = ${rkOf('new.label_report_id')} AND ck = ${ckOf('new.company_id')};
END;

CREATE TRIGGER listing_state_delete AFTER DELETE ON company_report_state BEGIN
  UPDATE report_listing SET has_flag = 0, is_archived = 0
  WHERE rk = ${rkOf('old.label_report_id')} AND ck = ${ckOf('old.company_id')};
END;

CREATE TRIGGER listing_custom_field_insert AFTER INSERT ON custom_field_values BEGIN
  ${ensureReportKey('new.label_report_id')};
  ${insertElements('v.rowid = new.rowid')};
END;

CREATE TRIGGER listing_custom_field_update AFTER UPDATE ON custom_field_values BEGIN
  DELETE FROM custom_field_elements WHERE rk = ${rkOf('old.label_report_id')} AND field = old.custom_field_id;
  ${ensureReportKey('new.label_report_id')};
  ${insertElements('v.rowid = new.rowid')};
END;

CREATE TRIGGER listing_custom_field_delete AFTER DELETE ON custom_field_values BEGIN
  DELETE FROM custom_field_elements WHERE rk = ${rkOf('old.label_report_id')} AND field = old.custom_field_id;
END;
`;
