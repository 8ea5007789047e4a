/**
 * Numbered, append-only: a shipped migration is never edited, a new one is added.
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
const RARE_VALUE_INDEXES: readonly (readonly [string, string])[] = [
  ['listing_reference', 'label_reference'],
  ['listing_label_uid', 'label_uid'],
  ['listing_sequence_code', 'label_sequence_code'],
  ['listing_label_name', 'label_name'],
  ['listing_datapoints_read', 'calc_datapoints_read'],
  ['listing_datapoints_available', 'calc_datapoints_available'],
  ['listing_measurements_occurred', 'calc_measurements_occurred'],
  ['listing_violations_humidity', 'calc_violations_humidity'],
  ['listing_violation_duration_humidity', 'calc_violation_duration_humidity'],
];

export default /* sql */ `
${RARE_VALUE_INDEXES.map(([name, column]) => `CREATE INDEX ${name} ON report_listing (ck, ${column}, created DESC, id);`).join('\n')}
`;
