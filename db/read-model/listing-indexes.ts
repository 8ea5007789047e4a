/** The read model: declarations moved out of the migrations that first wrote them. */

// Moved from migration 018.

/** [index name, figure column]: the figures no index held. */
export const NEW_FIGURE_INDEXES: readonly (readonly [string, string])[] = [
  ['listing_start_time', 'calc_start_time'],
  ['listing_current_time', 'calc_current_time'],
  ['listing_elapsed_time', 'calc_elapsed_time'],
  ['listing_violations_temperature', 'calc_violations_temperature'],
  ['listing_violation_duration_temperature', 'calc_violation_duration_temperature'],
  ['listing_violation_duration_all', 'calc_violation_duration_all'],
  ['listing_attained_min_temperature', 'calc_attained_min_temperature'],
  ['listing_attained_max_temperature', 'calc_attained_max_temperature'],
];

/** [index name, figure column]: migration 007's rare-value indexes on figures, given the tiebreak. */
export const REBUILT_FIGURE_INDEXES: readonly (readonly [string, string])[] = [
  ['listing_violations_humidity', 'calc_violations_humidity'],
  ['listing_violation_duration_humidity', 'calc_violation_duration_humidity'],
];


// Moved from migration 021.

/** [index name, listing column]: keys no index held in their order. */
export const KEY_ORDER_INDEXES: readonly (readonly [string, string])[] = [
  ['listing_number_of_taps', 'number_of_taps'],
  ['listing_data_is_incomplete', 'data_is_incomplete'],
  ['listing_sub_company', 'sub_company_id'],
  ['listing_label_type', 'label_type'],
  ['listing_firmware_version', 'firmware_version'],
  ['listing_firmware_api_version', 'firmware_api_version'],
  ['listing_interval', 'interval'],
  ['listing_config_time', 'config_time'],
  ['listing_start_delay', 'start_delay'],
  ['listing_running_time', 'running_time'],
  ['listing_min_temperature', 'min_temperature'],
  ['listing_max_temperature', 'max_temperature'],
  ['listing_min_humidity', 'min_humidity'],
  ['listing_max_humidity', 'max_humidity'],
  ['listing_alert_timestamp', 'alert_timestamp'],
];

/** [index name, listing column]: migration 007's rare-value indexes on the datapoint counts, given the tiebreak. */
export const REBUILT_COUNT_INDEXES: readonly (readonly [string, string])[] = [
  ['listing_datapoints_read', 'calc_datapoints_read'],
  ['listing_datapoints_available', 'calc_datapoints_available'],
  ['listing_measurements_occurred', 'calc_measurements_occurred'],
];


// Moved from migration 024.

/** The texts the index carries, in its order after the columns of migration 009. */
export const WALKED_TEXTS = ['label_reference', 'label_sequence_code'] as const;

/** The listing columns the index holds after the company and the archive state: a walk of it tests these without reading a row. */
export const ARCHIVED_INDEX_COLUMNS = ['created', 'id', 'status', 'alert_level', 'has_flag', 'mode', 'type', 'owner_ck', ...WALKED_TEXTS] as const;
