/**
 * Numbered, append-only: a shipped migration is never edited, a new one is added. Its SQL is
 * written out as it shipped and imports nothing; the live declarations are in db/read-model/.
 *
 * Indexes for filters on values few reports share: an equality on a reference, a label uid, a
 * sequence code or a label name, a range on the datapoint counts or on humidity violations. Under
 * the created order alone, such a filter walks the company's whole created index until the page
 * fills (or to the end, when fewer reports match); with these, the planner starts from the value
 * and sorts the few matches (the compiler keeps it from preferring the created index; see
 * rareValueIndex in db/query/field-columns.ts). Each ends with the created order and the id, so
 * it covers the page and, for an equality, holds the default order too.
 *
 * Their names start with `listing_` like the listing layout's own: a bulk import sets every index
 * of report_listing aside and builds it again after the writes (ReportStore.writingMany). Their
 * statistics come from the bounded analysis that opening the database runs for unanalysed indexes.
 */
export default /* sql */ `
CREATE INDEX listing_reference ON report_listing (ck, label_reference, created DESC, id);
CREATE INDEX listing_label_uid ON report_listing (ck, label_uid, created DESC, id);
CREATE INDEX listing_sequence_code ON report_listing (ck, label_sequence_code, created DESC, id);
CREATE INDEX listing_label_name ON report_listing (ck, label_name, created DESC, id);
CREATE INDEX listing_datapoints_read ON report_listing (ck, calc_datapoints_read, created DESC, id);
CREATE INDEX listing_datapoints_available ON report_listing (ck, calc_datapoints_available, created DESC, id);
CREATE INDEX listing_measurements_occurred ON report_listing (ck, calc_measurements_occurred, created DESC, id);
CREATE INDEX listing_violations_humidity ON report_listing (ck, calc_violations_humidity, created DESC, id);
CREATE INDEX listing_violation_duration_humidity ON report_listing (ck, calc_violation_duration_humidity, created DESC, id);
`;
