/**
 * Numbered, append-only: a shipped migration is never edited, a new one is added. Its SQL is
 * written out as it shipped and imports nothing; the live declarations are in db/read-model/.
 *
 * The insights' group figures kept by the write itself, as listing_counts (015) keeps the counts:
 * per company view, sums of every figure a group answers (reports, reports with excursions,
 * excursions, seconds out of range, degree-hours, MKT sum and count for the mean, the MKT's
 * maximum, reports per alert level and per current decision of the viewing company). Reading
 * every match for a monthly group-by took 0.1–0.7 s at 100 000 reports; summing the kept rows
 * takes milliseconds.
 *
 * - `group_figures_time`, per UTC day of the created time and of the start of the recording
 *   (`field` 0 and 1), split by owner, flag and archive state (the filters of a company's own
 *   view). The first and last UTC day of each month are kept per UTC hour: a zone whose offsets
 *   are whole hours starts its months on a UTC hour within a day of the UTC month's edge, so
 *   such a month is whole UTC days plus these hours. `at` is the hour (hours since 1970) a row
 *   starts at: a day's row starts at its midnight and spans 24 hours, an edge day's rows one hour
 *   each. A report without a start time counts under `at` = NONE (the group `null`), one whose
 *   time the reader's parse might read otherwise (a created time not written as
 *   `YYYY-MM-DDTHH:MM:SS[.fff]Z`, a start time not a number of seconds between 1900 and 9999)
 *   under UNKEYED, which sends the question to the one-pass read of the matches.
 * - `group_figures_time_totals`, the same split by archive state alone: the rows an unfiltered
 *   question or the browser's "not archived" sums, a third as many. Its triggers are on
 *   group_figures_time: each change of a finer row moves its sum by the difference.
 * - `group_figures_split`, without time, split by every column listing_counts splits by and by the
 *   range each distribution puts the report in (`bin_*`, -1: in none, the group `null`), for
 *   splits by a fixed key and the distributions under any filter of those columns.
 *
 * Each table's columns carry report_listing's names, so a compiled browser filter over the alias
 * l reads the same over it. The decision is that of review_current (016) for the row's company:
 * triggers there move a listing row's counts from one decision to the other.
 *
 * The MKT's maximum is kept per row: a report coming in raises it at once; one leaving (or
 * lowering its MKT) that held it reads the row's reports again, an index search: the hour or day
 * of created or start time in its index, or, without time, the MKT index downwards from the old
 * maximum. A sum cannot give it back.
 *
 * Every statement finds its kept rows by primary key: a compound of key rows is wrapped as
 * `IN (SELECT * FROM (a UNION ALL b))`, which SQLite searches key by key (`(tuple) IN (a UNION
 * ALL b)` scans the whole table). Not an upsert: inside a trigger, the conflict clause of the
 * outer statement would take its place. The triggers' names start with `listing_`, so a bulk
 * import sets them aside with the listing's own and sums again once the listing rows are built
 * (ReportStore.writingMany).
 */
export default /* sql */ `
CREATE TABLE group_figures_time (
  ck INTEGER NOT NULL,
  field INTEGER NOT NULL,
  at INTEGER NOT NULL,
  owner_ck INTEGER NOT NULL,
  has_flag INTEGER NOT NULL,
  is_archived INTEGER NOT NULL,
  n INTEGER NOT NULL,
  with_excursions INTEGER NOT NULL,
  excursions REAL NOT NULL,
  seconds_out REAL NOT NULL,
  degree_hours REAL NOT NULL,
  mkt_sum REAL NOT NULL,
  mkt_n INTEGER NOT NULL,
  level_none INTEGER NOT NULL,
  level_0 INTEGER NOT NULL,
  level_1 INTEGER NOT NULL,
  level_2 INTEGER NOT NULL,
  released INTEGER NOT NULL,
  rejected INTEGER NOT NULL,
  on_hold INTEGER NOT NULL,
  mkt_max ANY,
  PRIMARY KEY (ck, field, at, owner_ck, has_flag, is_archived)
) STRICT, WITHOUT ROWID;

DELETE FROM group_figures_time;
INSERT INTO group_figures_time (ck, field, at, owner_ck, has_flag, is_archived, n, with_excursions, excursions, seconds_out, degree_hours, mkt_sum, mkt_n, level_none, level_0, level_1, level_2, released, rejected, on_hold, mkt_max)
  SELECT k.ck, k.field, k.at, k.owner_ck, k.has_flag, k.is_archived, count(*), coalesce(sum(p.calc_violations_all > 0), 0), total(p.calc_violations_all), total(p.calc_violation_duration_all), total(p.calc_degree_hour), total(p.calc_mean_kinetic_temperature), count(p.calc_mean_kinetic_temperature), coalesce(sum(p.alert_level = -1), 0), coalesce(sum(p.alert_level = 0), 0), coalesce(sum(p.alert_level = 1), 0), coalesce(sum(p.alert_level = 2), 0), coalesce(sum(k.decision_ = 'released'), 0), coalesce(sum(k.decision_ = 'rejected'), 0), coalesce(sum(k.decision_ = 'onHold'), 0),
         CASE WHEN k.at = 9007199254740990 THEN NULL ELSE max(p.calc_mean_kinetic_temperature) END
    FROM (SELECT x.ck AS ck, 0 AS field, (SELECT CASE WHEN (c GLOB '[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]T[0-9][0-9]:[0-9][0-9]:[0-9][0-9]Z'
      OR (c GLOB '[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]T[0-9][0-9]:[0-9][0-9]:[0-9][0-9].[0-9]*Z'
          AND length(c) <= 30 AND substr(c, 21, length(c) - 21) NOT GLOB '*[^0-9]*'))
    AND strftime('%Y-%m-%dT%H:%M:%S', s, 'unixepoch') = substr(c, 1, 19) AND (s) >= -2208988800 AND (s) < 253402300800
  THEN (SELECT CASE WHEN (strftime('%d', (d) * 86400, 'unixepoch') = '01' OR strftime('%d', (d) * 86400 + 86400, 'unixepoch') = '01') THEN h ELSE d * 24 END FROM (SELECT h, (((h) - ((((h) % 24) + 24) % 24)) / 24) AS d FROM (SELECT (((s) - ((((s) % 3600) + 3600) % 3600)) / 3600) AS h))) ELSE 9007199254740990 END FROM (SELECT x.created AS c, unixepoch(x.created) AS s)) AS at, x.owner_ck AS owner_ck, x.has_flag AS has_flag, x.is_archived AS is_archived , x.rk AS rk_, (SELECT rc.decision FROM review_current rc WHERE rc.label_report_id = x.id AND rc.company_id = (SELECT k.company_id FROM company_keys k WHERE k.ck = x.ck)) AS decision_ FROM report_listing x UNION ALL SELECT x.ck AS ck, 1 AS field, (SELECT CASE WHEN v IS NULL THEN 9007199254740991
  WHEN typeof(v) IN ('integer', 'real') AND (v) >= -2208988800 AND (v) < 253402300800
  THEN (SELECT CASE WHEN (strftime('%d', (d) * 86400, 'unixepoch') = '01' OR strftime('%d', (d) * 86400 + 86400, 'unixepoch') = '01') THEN h ELSE d * 24 END FROM (SELECT h, (((h) - ((((h) % 24) + 24) % 24)) / 24) AS d FROM (SELECT ((((CAST(v AS INTEGER) - ((v) < CAST(v AS INTEGER)))) - (((((CAST(v AS INTEGER) - ((v) < CAST(v AS INTEGER)))) % 3600) + 3600) % 3600)) / 3600) AS h))) ELSE 9007199254740990 END FROM (SELECT x.calc_start_time AS v)) AS at, x.owner_ck AS owner_ck, x.has_flag AS has_flag, x.is_archived AS is_archived , x.rk AS rk_, (SELECT rc.decision FROM review_current rc WHERE rc.label_report_id = x.id AND rc.company_id = (SELECT k.company_id FROM company_keys k WHERE k.ck = x.ck)) AS decision_ FROM report_listing x) k
    JOIN report_listing p ON p.ck = k.ck AND p.rk = k.rk_
   GROUP BY k.ck, k.field, k.at, k.owner_ck, k.has_flag, k.is_archived;

CREATE TRIGGER listing_group_figures_time_insert AFTER INSERT ON report_listing BEGIN
  UPDATE group_figures_time SET n = n + 1, with_excursions = with_excursions + coalesce(new.calc_violations_all > 0, 0), excursions = excursions + coalesce(new.calc_violations_all, 0), seconds_out = seconds_out + coalesce(new.calc_violation_duration_all, 0), degree_hours = degree_hours + coalesce(new.calc_degree_hour, 0), mkt_sum = mkt_sum + coalesce(new.calc_mean_kinetic_temperature, 0), mkt_n = mkt_n + (new.calc_mean_kinetic_temperature IS NOT NULL), level_none = level_none + (new.alert_level = -1), level_0 = level_0 + (new.alert_level = 0), level_1 = level_1 + (new.alert_level = 1), level_2 = level_2 + (new.alert_level = 2), released = released + coalesce((SELECT rc.decision FROM review_current rc WHERE rc.label_report_id = new.id AND rc.company_id = (SELECT k.company_id FROM company_keys k WHERE k.ck = new.ck)) = 'released', 0), rejected = rejected + coalesce((SELECT rc.decision FROM review_current rc WHERE rc.label_report_id = new.id AND rc.company_id = (SELECT k.company_id FROM company_keys k WHERE k.ck = new.ck)) = 'rejected', 0), on_hold = on_hold + coalesce((SELECT rc.decision FROM review_current rc WHERE rc.label_report_id = new.id AND rc.company_id = (SELECT k.company_id FROM company_keys k WHERE k.ck = new.ck)) = 'onHold', 0), mkt_max = CASE WHEN at = 9007199254740990 OR new.calc_mean_kinetic_temperature IS NULL THEN mkt_max WHEN mkt_max IS NULL OR new.calc_mean_kinetic_temperature > mkt_max THEN new.calc_mean_kinetic_temperature ELSE mkt_max END
      WHERE (ck, field, at, owner_ck, has_flag, is_archived) IN (SELECT * FROM (SELECT new.ck AS ck, 0 AS field, (SELECT CASE WHEN (c GLOB '[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]T[0-9][0-9]:[0-9][0-9]:[0-9][0-9]Z'
      OR (c GLOB '[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]T[0-9][0-9]:[0-9][0-9]:[0-9][0-9].[0-9]*Z'
          AND length(c) <= 30 AND substr(c, 21, length(c) - 21) NOT GLOB '*[^0-9]*'))
    AND strftime('%Y-%m-%dT%H:%M:%S', s, 'unixepoch') = substr(c, 1, 19) AND (s) >= -2208988800 AND (s) < 253402300800
  THEN (SELECT CASE WHEN (strftime('%d', (d) * 86400, 'unixepoch') = '01' OR strftime('%d', (d) * 86400 + 86400, 'unixepoch') = '01') THEN h ELSE d * 24 END FROM (SELECT h, (((h) - ((((h) % 24) + 24) % 24)) / 24) AS d FROM (SELECT (((s) - ((((s) % 3600) + 3600) % 3600)) / 3600) AS h))) ELSE 9007199254740990 END FROM (SELECT new.created AS c, unixepoch(new.created) AS s)) AS at, new.owner_ck AS owner_ck, new.has_flag AS has_flag, new.is_archived AS is_archived  UNION ALL SELECT new.ck AS ck, 1 AS field, (SELECT CASE WHEN v IS NULL THEN 9007199254740991
  WHEN typeof(v) IN ('integer', 'real') AND (v) >= -2208988800 AND (v) < 253402300800
  THEN (SELECT CASE WHEN (strftime('%d', (d) * 86400, 'unixepoch') = '01' OR strftime('%d', (d) * 86400 + 86400, 'unixepoch') = '01') THEN h ELSE d * 24 END FROM (SELECT h, (((h) - ((((h) % 24) + 24) % 24)) / 24) AS d FROM (SELECT ((((CAST(v AS INTEGER) - ((v) < CAST(v AS INTEGER)))) - (((((CAST(v AS INTEGER) - ((v) < CAST(v AS INTEGER)))) % 3600) + 3600) % 3600)) / 3600) AS h))) ELSE 9007199254740990 END FROM (SELECT new.calc_start_time AS v)) AS at, new.owner_ck AS owner_ck, new.has_flag AS has_flag, new.is_archived AS is_archived ));
  INSERT INTO group_figures_time (ck, field, at, owner_ck, has_flag, is_archived, n, with_excursions, excursions, seconds_out, degree_hours, mkt_sum, mkt_n, level_none, level_0, level_1, level_2, released, rejected, on_hold, mkt_max)
      SELECT kr.*, 1, coalesce(new.calc_violations_all > 0, 0), coalesce(new.calc_violations_all, 0), coalesce(new.calc_violation_duration_all, 0), coalesce(new.calc_degree_hour, 0), coalesce(new.calc_mean_kinetic_temperature, 0), (new.calc_mean_kinetic_temperature IS NOT NULL), (new.alert_level = -1), (new.alert_level = 0), (new.alert_level = 1), (new.alert_level = 2), coalesce((SELECT rc.decision FROM review_current rc WHERE rc.label_report_id = new.id AND rc.company_id = (SELECT k.company_id FROM company_keys k WHERE k.ck = new.ck)) = 'released', 0), coalesce((SELECT rc.decision FROM review_current rc WHERE rc.label_report_id = new.id AND rc.company_id = (SELECT k.company_id FROM company_keys k WHERE k.ck = new.ck)) = 'rejected', 0), coalesce((SELECT rc.decision FROM review_current rc WHERE rc.label_report_id = new.id AND rc.company_id = (SELECT k.company_id FROM company_keys k WHERE k.ck = new.ck)) = 'onHold', 0), CASE WHEN kr.at = 9007199254740990 THEN NULL ELSE new.calc_mean_kinetic_temperature END
        FROM (SELECT * FROM (SELECT new.ck AS ck, 0 AS field, (SELECT CASE WHEN (c GLOB '[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]T[0-9][0-9]:[0-9][0-9]:[0-9][0-9]Z'
      OR (c GLOB '[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]T[0-9][0-9]:[0-9][0-9]:[0-9][0-9].[0-9]*Z'
          AND length(c) <= 30 AND substr(c, 21, length(c) - 21) NOT GLOB '*[^0-9]*'))
    AND strftime('%Y-%m-%dT%H:%M:%S', s, 'unixepoch') = substr(c, 1, 19) AND (s) >= -2208988800 AND (s) < 253402300800
  THEN (SELECT CASE WHEN (strftime('%d', (d) * 86400, 'unixepoch') = '01' OR strftime('%d', (d) * 86400 + 86400, 'unixepoch') = '01') THEN h ELSE d * 24 END FROM (SELECT h, (((h) - ((((h) % 24) + 24) % 24)) / 24) AS d FROM (SELECT (((s) - ((((s) % 3600) + 3600) % 3600)) / 3600) AS h))) ELSE 9007199254740990 END FROM (SELECT new.created AS c, unixepoch(new.created) AS s)) AS at, new.owner_ck AS owner_ck, new.has_flag AS has_flag, new.is_archived AS is_archived  UNION ALL SELECT new.ck AS ck, 1 AS field, (SELECT CASE WHEN v IS NULL THEN 9007199254740991
  WHEN typeof(v) IN ('integer', 'real') AND (v) >= -2208988800 AND (v) < 253402300800
  THEN (SELECT CASE WHEN (strftime('%d', (d) * 86400, 'unixepoch') = '01' OR strftime('%d', (d) * 86400 + 86400, 'unixepoch') = '01') THEN h ELSE d * 24 END FROM (SELECT h, (((h) - ((((h) % 24) + 24) % 24)) / 24) AS d FROM (SELECT ((((CAST(v AS INTEGER) - ((v) < CAST(v AS INTEGER)))) - (((((CAST(v AS INTEGER) - ((v) < CAST(v AS INTEGER)))) % 3600) + 3600) % 3600)) / 3600) AS h))) ELSE 9007199254740990 END FROM (SELECT new.calc_start_time AS v)) AS at, new.owner_ck AS owner_ck, new.has_flag AS has_flag, new.is_archived AS is_archived )) kr
       WHERE NOT EXISTS (SELECT 1 FROM group_figures_time c WHERE c.ck = kr.ck AND c.field = kr.field AND c.at = kr.at AND c.owner_ck = kr.owner_ck AND c.has_flag = kr.has_flag AND c.is_archived = kr.is_archived);
END;

CREATE TRIGGER listing_group_figures_time_delete AFTER DELETE ON report_listing BEGIN
  UPDATE group_figures_time SET n = n - 1, with_excursions = with_excursions - coalesce(old.calc_violations_all > 0, 0), excursions = excursions - coalesce(old.calc_violations_all, 0), seconds_out = seconds_out - coalesce(old.calc_violation_duration_all, 0), degree_hours = degree_hours - coalesce(old.calc_degree_hour, 0), mkt_sum = mkt_sum - coalesce(old.calc_mean_kinetic_temperature, 0), mkt_n = mkt_n - (old.calc_mean_kinetic_temperature IS NOT NULL), level_none = level_none - (old.alert_level = -1), level_0 = level_0 - (old.alert_level = 0), level_1 = level_1 - (old.alert_level = 1), level_2 = level_2 - (old.alert_level = 2), released = released - coalesce((SELECT rc.decision FROM review_current rc WHERE rc.label_report_id = old.id AND rc.company_id = (SELECT k.company_id FROM company_keys k WHERE k.ck = old.ck)) = 'released', 0), rejected = rejected - coalesce((SELECT rc.decision FROM review_current rc WHERE rc.label_report_id = old.id AND rc.company_id = (SELECT k.company_id FROM company_keys k WHERE k.ck = old.ck)) = 'rejected', 0), on_hold = on_hold - coalesce((SELECT rc.decision FROM review_current rc WHERE rc.label_report_id = old.id AND rc.company_id = (SELECT k.company_id FROM company_keys k WHERE k.ck = old.ck)) = 'onHold', 0),
        mkt_max = CASE WHEN old.calc_mean_kinetic_temperature IS NOT NULL AND mkt_max = old.calc_mean_kinetic_temperature AND NOT CASE WHEN group_figures_time.at = 9007199254740990 THEN 0
      WHEN group_figures_time.field = 0 THEN EXISTS (SELECT 1 FROM report_listing l INDEXED BY listing_mean_kinetic_temperature
        WHERE l.ck = group_figures_time.ck AND l.calc_mean_kinetic_temperature = old.calc_mean_kinetic_temperature AND l.owner_ck = group_figures_time.owner_ck AND l.has_flag = group_figures_time.has_flag AND l.is_archived = group_figures_time.is_archived AND +l.created >= strftime('%Y-%m-%dT%H:%M:%S', (group_figures_time.at) * 3600, 'unixepoch') AND +l.created < strftime('%Y-%m-%dT%H:%M:%S', (CASE WHEN ((((group_figures_time.at) % 24) + 24) % 24) <> 0 OR (strftime('%d', ((((group_figures_time.at) - ((((group_figures_time.at) % 24) + 24) % 24)) / 24)) * 86400, 'unixepoch') = '01' OR strftime('%d', ((((group_figures_time.at) - ((((group_figures_time.at) % 24) + 24) % 24)) / 24)) * 86400 + 86400, 'unixepoch') = '01') THEN (group_figures_time.at) + 1 ELSE (group_figures_time.at) + 24 END) * 3600, 'unixepoch') AND (SELECT CASE WHEN (c GLOB '[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]T[0-9][0-9]:[0-9][0-9]:[0-9][0-9]Z'
      OR (c GLOB '[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]T[0-9][0-9]:[0-9][0-9]:[0-9][0-9].[0-9]*Z'
          AND length(c) <= 30 AND substr(c, 21, length(c) - 21) NOT GLOB '*[^0-9]*'))
    AND strftime('%Y-%m-%dT%H:%M:%S', s, 'unixepoch') = substr(c, 1, 19) AND (s) >= -2208988800 AND (s) < 253402300800
  THEN (SELECT CASE WHEN (strftime('%d', (d) * 86400, 'unixepoch') = '01' OR strftime('%d', (d) * 86400 + 86400, 'unixepoch') = '01') THEN h ELSE d * 24 END FROM (SELECT h, (((h) - ((((h) % 24) + 24) % 24)) / 24) AS d FROM (SELECT (((s) - ((((s) % 3600) + 3600) % 3600)) / 3600) AS h))) ELSE 9007199254740990 END FROM (SELECT l.created AS c, unixepoch(l.created) AS s)) = group_figures_time.at)
      WHEN group_figures_time.at = 9007199254740991 THEN EXISTS (SELECT 1 FROM report_listing l INDEXED BY listing_mean_kinetic_temperature WHERE l.ck = group_figures_time.ck AND l.calc_mean_kinetic_temperature = old.calc_mean_kinetic_temperature AND l.owner_ck = group_figures_time.owner_ck AND l.has_flag = group_figures_time.has_flag AND l.is_archived = group_figures_time.is_archived AND +l.calc_start_time IS NULL)
      ELSE EXISTS (SELECT 1 FROM report_listing l INDEXED BY listing_mean_kinetic_temperature
        WHERE l.ck = group_figures_time.ck AND l.calc_mean_kinetic_temperature = old.calc_mean_kinetic_temperature AND l.owner_ck = group_figures_time.owner_ck AND l.has_flag = group_figures_time.has_flag AND l.is_archived = group_figures_time.is_archived AND +l.calc_start_time >= group_figures_time.at * 3600 AND +l.calc_start_time < (CASE WHEN ((((group_figures_time.at) % 24) + 24) % 24) <> 0 OR (strftime('%d', ((((group_figures_time.at) - ((((group_figures_time.at) % 24) + 24) % 24)) / 24)) * 86400, 'unixepoch') = '01' OR strftime('%d', ((((group_figures_time.at) - ((((group_figures_time.at) % 24) + 24) % 24)) / 24)) * 86400 + 86400, 'unixepoch') = '01') THEN (group_figures_time.at) + 1 ELSE (group_figures_time.at) + 24 END) * 3600 AND (SELECT CASE WHEN v IS NULL THEN 9007199254740991
  WHEN typeof(v) IN ('integer', 'real') AND (v) >= -2208988800 AND (v) < 253402300800
  THEN (SELECT CASE WHEN (strftime('%d', (d) * 86400, 'unixepoch') = '01' OR strftime('%d', (d) * 86400 + 86400, 'unixepoch') = '01') THEN h ELSE d * 24 END FROM (SELECT h, (((h) - ((((h) % 24) + 24) % 24)) / 24) AS d FROM (SELECT ((((CAST(v AS INTEGER) - ((v) < CAST(v AS INTEGER)))) - (((((CAST(v AS INTEGER) - ((v) < CAST(v AS INTEGER)))) % 3600) + 3600) % 3600)) / 3600) AS h))) ELSE 9007199254740990 END FROM (SELECT l.calc_start_time AS v)) = group_figures_time.at) END THEN CASE WHEN group_figures_time.at = 9007199254740990 THEN NULL
      WHEN group_figures_time.field = 0 THEN (SELECT max(l.calc_mean_kinetic_temperature) FROM report_listing l
        WHERE l.ck = group_figures_time.ck AND l.created >= strftime('%Y-%m-%dT%H:%M:%S', (group_figures_time.at) * 3600, 'unixepoch') AND l.created < strftime('%Y-%m-%dT%H:%M:%S', (CASE WHEN ((((group_figures_time.at) % 24) + 24) % 24) <> 0 OR (strftime('%d', ((((group_figures_time.at) - ((((group_figures_time.at) % 24) + 24) % 24)) / 24)) * 86400, 'unixepoch') = '01' OR strftime('%d', ((((group_figures_time.at) - ((((group_figures_time.at) % 24) + 24) % 24)) / 24)) * 86400 + 86400, 'unixepoch') = '01') THEN (group_figures_time.at) + 1 ELSE (group_figures_time.at) + 24 END) * 3600, 'unixepoch') AND l.owner_ck = group_figures_time.owner_ck AND l.has_flag = group_figures_time.has_flag AND l.is_archived = group_figures_time.is_archived AND (SELECT CASE WHEN (c GLOB '[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]T[0-9][0-9]:[0-9][0-9]:[0-9][0-9]Z'
      OR (c GLOB '[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]T[0-9][0-9]:[0-9][0-9]:[0-9][0-9].[0-9]*Z'
          AND length(c) <= 30 AND substr(c, 21, length(c) - 21) NOT GLOB '*[^0-9]*'))
    AND strftime('%Y-%m-%dT%H:%M:%S', s, 'unixepoch') = substr(c, 1, 19) AND (s) >= -2208988800 AND (s) < 253402300800
  THEN (SELECT CASE WHEN (strftime('%d', (d) * 86400, 'unixepoch') = '01' OR strftime('%d', (d) * 86400 + 86400, 'unixepoch') = '01') THEN h ELSE d * 24 END FROM (SELECT h, (((h) - ((((h) % 24) + 24) % 24)) / 24) AS d FROM (SELECT (((s) - ((((s) % 3600) + 3600) % 3600)) / 3600) AS h))) ELSE 9007199254740990 END FROM (SELECT l.created AS c, unixepoch(l.created) AS s)) = group_figures_time.at)
      WHEN group_figures_time.at = 9007199254740991 THEN (SELECT max(+l.calc_mean_kinetic_temperature) FROM report_listing l
        WHERE l.ck = group_figures_time.ck AND unlikely(l.calc_start_time IS NULL) AND l.owner_ck = group_figures_time.owner_ck AND l.has_flag = group_figures_time.has_flag AND l.is_archived = group_figures_time.is_archived)
      ELSE (SELECT max(l.calc_mean_kinetic_temperature) FROM report_listing l
        WHERE l.ck = group_figures_time.ck AND l.calc_start_time >= group_figures_time.at * 3600 AND l.calc_start_time < (CASE WHEN ((((group_figures_time.at) % 24) + 24) % 24) <> 0 OR (strftime('%d', ((((group_figures_time.at) - ((((group_figures_time.at) % 24) + 24) % 24)) / 24)) * 86400, 'unixepoch') = '01' OR strftime('%d', ((((group_figures_time.at) - ((((group_figures_time.at) % 24) + 24) % 24)) / 24)) * 86400 + 86400, 'unixepoch') = '01') THEN (group_figures_time.at) + 1 ELSE (group_figures_time.at) + 24 END) * 3600 AND l.owner_ck = group_figures_time.owner_ck AND l.has_flag = group_figures_time.has_flag AND l.is_archived = group_figures_time.is_archived AND (SELECT CASE WHEN v IS NULL THEN 9007199254740991
  WHEN typeof(v) IN ('integer', 'real') AND (v) >= -2208988800 AND (v) < 253402300800
  THEN (SELECT CASE WHEN (strftime('%d', (d) * 86400, 'unixepoch') = '01' OR strftime('%d', (d) * 86400 + 86400, 'unixepoch') = '01') THEN h ELSE d * 24 END FROM (SELECT h, (((h) - ((((h) % 24) + 24) % 24)) / 24) AS d FROM (SELECT ((((CAST(v AS INTEGER) - ((v) < CAST(v AS INTEGER)))) - (((((CAST(v AS INTEGER) - ((v) < CAST(v AS INTEGER)))) % 3600) + 3600) % 3600)) / 3600) AS h))) ELSE 9007199254740990 END FROM (SELECT l.calc_start_time AS v)) = group_figures_time.at) END ELSE mkt_max END
      WHERE (ck, field, at, owner_ck, has_flag, is_archived) IN (SELECT * FROM (SELECT old.ck AS ck, 0 AS field, (SELECT CASE WHEN (c GLOB '[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]T[0-9][0-9]:[0-9][0-9]:[0-9][0-9]Z'
      OR (c GLOB '[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]T[0-9][0-9]:[0-9][0-9]:[0-9][0-9].[0-9]*Z'
          AND length(c) <= 30 AND substr(c, 21, length(c) - 21) NOT GLOB '*[^0-9]*'))
    AND strftime('%Y-%m-%dT%H:%M:%S', s, 'unixepoch') = substr(c, 1, 19) AND (s) >= -2208988800 AND (s) < 253402300800
  THEN (SELECT CASE WHEN (strftime('%d', (d) * 86400, 'unixepoch') = '01' OR strftime('%d', (d) * 86400 + 86400, 'unixepoch') = '01') THEN h ELSE d * 24 END FROM (SELECT h, (((h) - ((((h) % 24) + 24) % 24)) / 24) AS d FROM (SELECT (((s) - ((((s) % 3600) + 3600) % 3600)) / 3600) AS h))) ELSE 9007199254740990 END FROM (SELECT old.created AS c, unixepoch(old.created) AS s)) AS at, old.owner_ck AS owner_ck, old.has_flag AS has_flag, old.is_archived AS is_archived  UNION ALL SELECT old.ck AS ck, 1 AS field, (SELECT CASE WHEN v IS NULL THEN 9007199254740991
  WHEN typeof(v) IN ('integer', 'real') AND (v) >= -2208988800 AND (v) < 253402300800
  THEN (SELECT CASE WHEN (strftime('%d', (d) * 86400, 'unixepoch') = '01' OR strftime('%d', (d) * 86400 + 86400, 'unixepoch') = '01') THEN h ELSE d * 24 END FROM (SELECT h, (((h) - ((((h) % 24) + 24) % 24)) / 24) AS d FROM (SELECT ((((CAST(v AS INTEGER) - ((v) < CAST(v AS INTEGER)))) - (((((CAST(v AS INTEGER) - ((v) < CAST(v AS INTEGER)))) % 3600) + 3600) % 3600)) / 3600) AS h))) ELSE 9007199254740990 END FROM (SELECT old.calc_start_time AS v)) AS at, old.owner_ck AS owner_ck, old.has_flag AS has_flag, old.is_archived AS is_archived ));
  DELETE FROM group_figures_time WHERE n <= 0 AND (ck, field, at, owner_ck, has_flag, is_archived) IN (SELECT * FROM (SELECT old.ck AS ck, 0 AS field, (SELECT CASE WHEN (c GLOB '[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]T[0-9][0-9]:[0-9][0-9]:[0-9][0-9]Z'
      OR (c GLOB '[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]T[0-9][0-9]:[0-9][0-9]:[0-9][0-9].[0-9]*Z'
          AND length(c) <= 30 AND substr(c, 21, length(c) - 21) NOT GLOB '*[^0-9]*'))
    AND strftime('%Y-%m-%dT%H:%M:%S', s, 'unixepoch') = substr(c, 1, 19) AND (s) >= -2208988800 AND (s) < 253402300800
  THEN (SELECT CASE WHEN (strftime('%d', (d) * 86400, 'unixepoch') = '01' OR strftime('%d', (d) * 86400 + 86400, 'unixepoch') = '01') THEN h ELSE d * 24 END FROM (SELECT h, (((h) - ((((h) % 24) + 24) % 24)) / 24) AS d FROM (SELECT (((s) - ((((s) % 3600) + 3600) % 3600)) / 3600) AS h))) ELSE 9007199254740990 END FROM (SELECT old.created AS c, unixepoch(old.created) AS s)) AS at, old.owner_ck AS owner_ck, old.has_flag AS has_flag, old.is_archived AS is_archived  UNION ALL SELECT old.ck AS ck, 1 AS field, (SELECT CASE WHEN v IS NULL THEN 9007199254740991
  WHEN typeof(v) IN ('integer', 'real') AND (v) >= -2208988800 AND (v) < 253402300800
  THEN (SELECT CASE WHEN (strftime('%d', (d) * 86400, 'unixepoch') = '01' OR strftime('%d', (d) * 86400 + 86400, 'unixepoch') = '01') THEN h ELSE d * 24 END FROM (SELECT h, (((h) - ((((h) % 24) + 24) % 24)) / 24) AS d FROM (SELECT ((((CAST(v AS INTEGER) - ((v) < CAST(v AS INTEGER)))) - (((((CAST(v AS INTEGER) - ((v) < CAST(v AS INTEGER)))) % 3600) + 3600) % 3600)) / 3600) AS h))) ELSE 9007199254740990 END FROM (SELECT old.calc_start_time AS v)) AS at, old.owner_ck AS owner_ck, old.has_flag AS has_flag, old.is_archived AS is_archived ));
END;

CREATE TRIGGER listing_group_figures_time_update AFTER UPDATE OF created, calc_start_time, owner_ck, has_flag, is_archived, alert_level, calc_violations_all, calc_violation_duration_all, calc_degree_hour, calc_mean_kinetic_temperature ON report_listing
WHEN old.created IS NOT new.created OR old.calc_start_time IS NOT new.calc_start_time OR old.owner_ck IS NOT new.owner_ck OR old.has_flag IS NOT new.has_flag OR old.is_archived IS NOT new.is_archived OR old.alert_level IS NOT new.alert_level OR old.calc_violations_all IS NOT new.calc_violations_all OR old.calc_violation_duration_all IS NOT new.calc_violation_duration_all OR old.calc_degree_hour IS NOT new.calc_degree_hour OR old.calc_mean_kinetic_temperature IS NOT new.calc_mean_kinetic_temperature BEGIN
  UPDATE group_figures_time SET n = n - 1, with_excursions = with_excursions - coalesce(old.calc_violations_all > 0, 0), excursions = excursions - coalesce(old.calc_violations_all, 0), seconds_out = seconds_out - coalesce(old.calc_violation_duration_all, 0), degree_hours = degree_hours - coalesce(old.calc_degree_hour, 0), mkt_sum = mkt_sum - coalesce(old.calc_mean_kinetic_temperature, 0), mkt_n = mkt_n - (old.calc_mean_kinetic_temperature IS NOT NULL), level_none = level_none - (old.alert_level = -1), level_0 = level_0 - (old.alert_level = 0), level_1 = level_1 - (old.alert_level = 1), level_2 = level_2 - (old.alert_level = 2), released = released - coalesce((SELECT rc.decision FROM review_current rc WHERE rc.label_report_id = old.id AND rc.company_id = (SELECT k.company_id FROM company_keys k WHERE k.ck = old.ck)) = 'released', 0), rejected = rejected - coalesce((SELECT rc.decision FROM review_current rc WHERE rc.label_report_id = old.id AND rc.company_id = (SELECT k.company_id FROM company_keys k WHERE k.ck = old.ck)) = 'rejected', 0), on_hold = on_hold - coalesce((SELECT rc.decision FROM review_current rc WHERE rc.label_report_id = old.id AND rc.company_id = (SELECT k.company_id FROM company_keys k WHERE k.ck = old.ck)) = 'onHold', 0),
        mkt_max = CASE WHEN old.calc_mean_kinetic_temperature IS NOT NULL AND mkt_max = old.calc_mean_kinetic_temperature AND NOT CASE WHEN group_figures_time.at = 9007199254740990 THEN 0
      WHEN group_figures_time.field = 0 THEN EXISTS (SELECT 1 FROM report_listing l INDEXED BY listing_mean_kinetic_temperature
        WHERE l.ck = group_figures_time.ck AND l.calc_mean_kinetic_temperature = old.calc_mean_kinetic_temperature AND l.owner_ck = group_figures_time.owner_ck AND l.has_flag = group_figures_time.has_flag AND l.is_archived = group_figures_time.is_archived AND +l.created >= strftime('%Y-%m-%dT%H:%M:%S', (group_figures_time.at) * 3600, 'unixepoch') AND +l.created < strftime('%Y-%m-%dT%H:%M:%S', (CASE WHEN ((((group_figures_time.at) % 24) + 24) % 24) <> 0 OR (strftime('%d', ((((group_figures_time.at) - ((((group_figures_time.at) % 24) + 24) % 24)) / 24)) * 86400, 'unixepoch') = '01' OR strftime('%d', ((((group_figures_time.at) - ((((group_figures_time.at) % 24) + 24) % 24)) / 24)) * 86400 + 86400, 'unixepoch') = '01') THEN (group_figures_time.at) + 1 ELSE (group_figures_time.at) + 24 END) * 3600, 'unixepoch') AND (SELECT CASE WHEN (c GLOB '[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]T[0-9][0-9]:[0-9][0-9]:[0-9][0-9]Z'
      OR (c GLOB '[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]T[0-9][0-9]:[0-9][0-9]:[0-9][0-9].[0-9]*Z'
          AND length(c) <= 30 AND substr(c, 21, length(c) - 21) NOT GLOB '*[^0-9]*'))
    AND strftime('%Y-%m-%dT%H:%M:%S', s, 'unixepoch') = substr(c, 1, 19) AND (s) >= -2208988800 AND (s) < 253402300800
  THEN (SELECT CASE WHEN (strftime('%d', (d) * 86400, 'unixepoch') = '01' OR strftime('%d', (d) * 86400 + 86400, 'unixepoch') = '01') THEN h ELSE d * 24 END FROM (SELECT h, (((h) - ((((h) % 24) + 24) % 24)) / 24) AS d FROM (SELECT (((s) - ((((s) % 3600) + 3600) % 3600)) / 3600) AS h))) ELSE 9007199254740990 END FROM (SELECT l.created AS c, unixepoch(l.created) AS s)) = group_figures_time.at)
      WHEN group_figures_time.at = 9007199254740991 THEN EXISTS (SELECT 1 FROM report_listing l INDEXED BY listing_mean_kinetic_temperature WHERE l.ck = group_figures_time.ck AND l.calc_mean_kinetic_temperature = old.calc_mean_kinetic_temperature AND l.owner_ck = group_figures_time.owner_ck AND l.has_flag = group_figures_time.has_flag AND l.is_archived = group_figures_time.is_archived AND +l.calc_start_time IS NULL)
      ELSE EXISTS (SELECT 1 FROM report_listing l INDEXED BY listing_mean_kinetic_temperature
        WHERE l.ck = group_figures_time.ck AND l.calc_mean_kinetic_temperature = old.calc_mean_kinetic_temperature AND l.owner_ck = group_figures_time.owner_ck AND l.has_flag = group_figures_time.has_flag AND l.is_archived = group_figures_time.is_archived AND +l.calc_start_time >= group_figures_time.at * 3600 AND +l.calc_start_time < (CASE WHEN ((((group_figures_time.at) % 24) + 24) % 24) <> 0 OR (strftime('%d', ((((group_figures_time.at) - ((((group_figures_time.at) % 24) + 24) % 24)) / 24)) * 86400, 'unixepoch') = '01' OR strftime('%d', ((((group_figures_time.at) - ((((group_figures_time.at) % 24) + 24) % 24)) / 24)) * 86400 + 86400, 'unixepoch') = '01') THEN (group_figures_time.at) + 1 ELSE (group_figures_time.at) + 24 END) * 3600 AND (SELECT CASE WHEN v IS NULL THEN 9007199254740991
  WHEN typeof(v) IN ('integer', 'real') AND (v) >= -2208988800 AND (v) < 253402300800
  THEN (SELECT CASE WHEN (strftime('%d', (d) * 86400, 'unixepoch') = '01' OR strftime('%d', (d) * 86400 + 86400, 'unixepoch') = '01') THEN h ELSE d * 24 END FROM (SELECT h, (((h) - ((((h) % 24) + 24) % 24)) / 24) AS d FROM (SELECT ((((CAST(v AS INTEGER) - ((v) < CAST(v AS INTEGER)))) - (((((CAST(v AS INTEGER) - ((v) < CAST(v AS INTEGER)))) % 3600) + 3600) % 3600)) / 3600) AS h))) ELSE 9007199254740990 END FROM (SELECT l.calc_start_time AS v)) = group_figures_time.at) END THEN CASE WHEN group_figures_time.at = 9007199254740990 THEN NULL
      WHEN group_figures_time.field = 0 THEN (SELECT max(l.calc_mean_kinetic_temperature) FROM report_listing l
        WHERE l.ck = group_figures_time.ck AND l.created >= strftime('%Y-%m-%dT%H:%M:%S', (group_figures_time.at) * 3600, 'unixepoch') AND l.created < strftime('%Y-%m-%dT%H:%M:%S', (CASE WHEN ((((group_figures_time.at) % 24) + 24) % 24) <> 0 OR (strftime('%d', ((((group_figures_time.at) - ((((group_figures_time.at) % 24) + 24) % 24)) / 24)) * 86400, 'unixepoch') = '01' OR strftime('%d', ((((group_figures_time.at) - ((((group_figures_time.at) % 24) + 24) % 24)) / 24)) * 86400 + 86400, 'unixepoch') = '01') THEN (group_figures_time.at) + 1 ELSE (group_figures_time.at) + 24 END) * 3600, 'unixepoch') AND l.owner_ck = group_figures_time.owner_ck AND l.has_flag = group_figures_time.has_flag AND l.is_archived = group_figures_time.is_archived AND (SELECT CASE WHEN (c GLOB '[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]T[0-9][0-9]:[0-9][0-9]:[0-9][0-9]Z'
      OR (c GLOB '[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]T[0-9][0-9]:[0-9][0-9]:[0-9][0-9].[0-9]*Z'
          AND length(c) <= 30 AND substr(c, 21, length(c) - 21) NOT GLOB '*[^0-9]*'))
    AND strftime('%Y-%m-%dT%H:%M:%S', s, 'unixepoch') = substr(c, 1, 19) AND (s) >= -2208988800 AND (s) < 253402300800
  THEN (SELECT CASE WHEN (strftime('%d', (d) * 86400, 'unixepoch') = '01' OR strftime('%d', (d) * 86400 + 86400, 'unixepoch') = '01') THEN h ELSE d * 24 END FROM (SELECT h, (((h) - ((((h) % 24) + 24) % 24)) / 24) AS d FROM (SELECT (((s) - ((((s) % 3600) + 3600) % 3600)) / 3600) AS h))) ELSE 9007199254740990 END FROM (SELECT l.created AS c, unixepoch(l.created) AS s)) = group_figures_time.at)
      WHEN group_figures_time.at = 9007199254740991 THEN (SELECT max(+l.calc_mean_kinetic_temperature) FROM report_listing l
        WHERE l.ck = group_figures_time.ck AND unlikely(l.calc_start_time IS NULL) AND l.owner_ck = group_figures_time.owner_ck AND l.has_flag = group_figures_time.has_flag AND l.is_archived = group_figures_time.is_archived)
      ELSE (SELECT max(l.calc_mean_kinetic_temperature) FROM report_listing l
        WHERE l.ck = group_figures_time.ck AND l.calc_start_time >= group_figures_time.at * 3600 AND l.calc_start_time < (CASE WHEN ((((group_figures_time.at) % 24) + 24) % 24) <> 0 OR (strftime('%d', ((((group_figures_time.at) - ((((group_figures_time.at) % 24) + 24) % 24)) / 24)) * 86400, 'unixepoch') = '01' OR strftime('%d', ((((group_figures_time.at) - ((((group_figures_time.at) % 24) + 24) % 24)) / 24)) * 86400 + 86400, 'unixepoch') = '01') THEN (group_figures_time.at) + 1 ELSE (group_figures_time.at) + 24 END) * 3600 AND l.owner_ck = group_figures_time.owner_ck AND l.has_flag = group_figures_time.has_flag AND l.is_archived = group_figures_time.is_archived AND (SELECT CASE WHEN v IS NULL THEN 9007199254740991
  WHEN typeof(v) IN ('integer', 'real') AND (v) >= -2208988800 AND (v) < 253402300800
  THEN (SELECT CASE WHEN (strftime('%d', (d) * 86400, 'unixepoch') = '01' OR strftime('%d', (d) * 86400 + 86400, 'unixepoch') = '01') THEN h ELSE d * 24 END FROM (SELECT h, (((h) - ((((h) % 24) + 24) % 24)) / 24) AS d FROM (SELECT ((((CAST(v AS INTEGER) - ((v) < CAST(v AS INTEGER)))) - (((((CAST(v AS INTEGER) - ((v) < CAST(v AS INTEGER)))) % 3600) + 3600) % 3600)) / 3600) AS h))) ELSE 9007199254740990 END FROM (SELECT l.calc_start_time AS v)) = group_figures_time.at) END ELSE mkt_max END
      WHERE (ck, field, at, owner_ck, has_flag, is_archived) IN (SELECT * FROM (SELECT old.ck AS ck, 0 AS field, (SELECT CASE WHEN (c GLOB '[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]T[0-9][0-9]:[0-9][0-9]:[0-9][0-9]Z'
      OR (c GLOB '[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]T[0-9][0-9]:[0-9][0-9]:[0-9][0-9].[0-9]*Z'
          AND length(c) <= 30 AND substr(c, 21, length(c) - 21) NOT GLOB '*[^0-9]*'))
    AND strftime('%Y-%m-%dT%H:%M:%S', s, 'unixepoch') = substr(c, 1, 19) AND (s) >= -2208988800 AND (s) < 253402300800
  THEN (SELECT CASE WHEN (strftime('%d', (d) * 86400, 'unixepoch') = '01' OR strftime('%d', (d) * 86400 + 86400, 'unixepoch') = '01') THEN h ELSE d * 24 END FROM (SELECT h, (((h) - ((((h) % 24) + 24) % 24)) / 24) AS d FROM (SELECT (((s) - ((((s) % 3600) + 3600) % 3600)) / 3600) AS h))) ELSE 9007199254740990 END FROM (SELECT old.created AS c, unixepoch(old.created) AS s)) AS at, old.owner_ck AS owner_ck, old.has_flag AS has_flag, old.is_archived AS is_archived  UNION ALL SELECT old.ck AS ck, 1 AS field, (SELECT CASE WHEN v IS NULL THEN 9007199254740991
  WHEN typeof(v) IN ('integer', 'real') AND (v) >= -2208988800 AND (v) < 253402300800
  THEN (SELECT CASE WHEN (strftime('%d', (d) * 86400, 'unixepoch') = '01' OR strftime('%d', (d) * 86400 + 86400, 'unixepoch') = '01') THEN h ELSE d * 24 END FROM (SELECT h, (((h) - ((((h) % 24) + 24) % 24)) / 24) AS d FROM (SELECT ((((CAST(v AS INTEGER) - ((v) < CAST(v AS INTEGER)))) - (((((CAST(v AS INTEGER) - ((v) < CAST(v AS INTEGER)))) % 3600) + 3600) % 3600)) / 3600) AS h))) ELSE 9007199254740990 END FROM (SELECT old.calc_start_time AS v)) AS at, old.owner_ck AS owner_ck, old.has_flag AS has_flag, old.is_archived AS is_archived ));
  DELETE FROM group_figures_time WHERE n <= 0 AND (ck, field, at, owner_ck, has_flag, is_archived) IN (SELECT * FROM (SELECT old.ck AS ck, 0 AS field, (SELECT CASE WHEN (c GLOB '[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]T[0-9][0-9]:[0-9][0-9]:[0-9][0-9]Z'
      OR (c GLOB '[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]T[0-9][0-9]:[0-9][0-9]:[0-9][0-9].[0-9]*Z'
          AND length(c) <= 30 AND substr(c, 21, length(c) - 21) NOT GLOB '*[^0-9]*'))
    AND strftime('%Y-%m-%dT%H:%M:%S', s, 'unixepoch') = substr(c, 1, 19) AND (s) >= -2208988800 AND (s) < 253402300800
  THEN (SELECT CASE WHEN (strftime('%d', (d) * 86400, 'unixepoch') = '01' OR strftime('%d', (d) * 86400 + 86400, 'unixepoch') = '01') THEN h ELSE d * 24 END FROM (SELECT h, (((h) - ((((h) % 24) + 24) % 24)) / 24) AS d FROM (SELECT (((s) - ((((s) % 3600) + 3600) % 3600)) / 3600) AS h))) ELSE 9007199254740990 END FROM (SELECT old.created AS c, unixepoch(old.created) AS s)) AS at, old.owner_ck AS owner_ck, old.has_flag AS has_flag, old.is_archived AS is_archived  UNION ALL SELECT old.ck AS ck, 1 AS field, (SELECT CASE WHEN v IS NULL THEN 9007199254740991
  WHEN typeof(v) IN ('integer', 'real') AND (v) >= -2208988800 AND (v) < 253402300800
  THEN (SELECT CASE WHEN (strftime('%d', (d) * 86400, 'unixepoch') = '01' OR strftime('%d', (d) * 86400 + 86400, 'unixepoch') = '01') THEN h ELSE d * 24 END FROM (SELECT h, (((h) - ((((h) % 24) + 24) % 24)) / 24) AS d FROM (SELECT ((((CAST(v AS INTEGER) - ((v) < CAST(v AS INTEGER)))) - (((((CAST(v AS INTEGER) - ((v) < CAST(v AS INTEGER)))) % 3600) + 3600) % 3600)) / 3600) AS h))) ELSE 9007199254740990 END FROM (SELECT old.calc_start_time AS v)) AS at, old.owner_ck AS owner_ck, old.has_flag AS has_flag, old.is_archived AS is_archived ));
  UPDATE group_figures_time SET n = n + 1, with_excursions = with_excursions + coalesce(new.calc_violations_all > 0, 0), excursions = excursions + coalesce(new.calc_violations_all, 0), seconds_out = seconds_out + coalesce(new.calc_violation_duration_all, 0), degree_hours = degree_hours + coalesce(new.calc_degree_hour, 0), mkt_sum = mkt_sum + coalesce(new.calc_mean_kinetic_temperature, 0), mkt_n = mkt_n + (new.calc_mean_kinetic_temperature IS NOT NULL), level_none = level_none + (new.alert_level = -1), level_0 = level_0 + (new.alert_level = 0), level_1 = level_1 + (new.alert_level = 1), level_2 = level_2 + (new.alert_level = 2), released = released + coalesce((SELECT rc.decision FROM review_current rc WHERE rc.label_report_id = new.id AND rc.company_id = (SELECT k.company_id FROM company_keys k WHERE k.ck = new.ck)) = 'released', 0), rejected = rejected + coalesce((SELECT rc.decision FROM review_current rc WHERE rc.label_report_id = new.id AND rc.company_id = (SELECT k.company_id FROM company_keys k WHERE k.ck = new.ck)) = 'rejected', 0), on_hold = on_hold + coalesce((SELECT rc.decision FROM review_current rc WHERE rc.label_report_id = new.id AND rc.company_id = (SELECT k.company_id FROM company_keys k WHERE k.ck = new.ck)) = 'onHold', 0), mkt_max = CASE WHEN at = 9007199254740990 OR new.calc_mean_kinetic_temperature IS NULL THEN mkt_max WHEN mkt_max IS NULL OR new.calc_mean_kinetic_temperature > mkt_max THEN new.calc_mean_kinetic_temperature ELSE mkt_max END
      WHERE (ck, field, at, owner_ck, has_flag, is_archived) IN (SELECT * FROM (SELECT new.ck AS ck, 0 AS field, (SELECT CASE WHEN (c GLOB '[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]T[0-9][0-9]:[0-9][0-9]:[0-9][0-9]Z'
      OR (c GLOB '[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]T[0-9][0-9]:[0-9][0-9]:[0-9][0-9].[0-9]*Z'
          AND length(c) <= 30 AND substr(c, 21, length(c) - 21) NOT GLOB '*[^0-9]*'))
    AND strftime('%Y-%m-%dT%H:%M:%S', s, 'unixepoch') = substr(c, 1, 19) AND (s) >= -2208988800 AND (s) < 253402300800
  THEN (SELECT CASE WHEN (strftime('%d', (d) * 86400, 'unixepoch') = '01' OR strftime('%d', (d) * 86400 + 86400, 'unixepoch') = '01') THEN h ELSE d * 24 END FROM (SELECT h, (((h) - ((((h) % 24) + 24) % 24)) / 24) AS d FROM (SELECT (((s) - ((((s) % 3600) + 3600) % 3600)) / 3600) AS h))) ELSE 9007199254740990 END FROM (SELECT new.created AS c, unixepoch(new.created) AS s)) AS at, new.owner_ck AS owner_ck, new.has_flag AS has_flag, new.is_archived AS is_archived  UNION ALL SELECT new.ck AS ck, 1 AS field, (SELECT CASE WHEN v IS NULL THEN 9007199254740991
  WHEN typeof(v) IN ('integer', 'real') AND (v) >= -2208988800 AND (v) < 253402300800
  THEN (SELECT CASE WHEN (strftime('%d', (d) * 86400, 'unixepoch') = '01' OR strftime('%d', (d) * 86400 + 86400, 'unixepoch') = '01') THEN h ELSE d * 24 END FROM (SELECT h, (((h) - ((((h) % 24) + 24) % 24)) / 24) AS d FROM (SELECT ((((CAST(v AS INTEGER) - ((v) < CAST(v AS INTEGER)))) - (((((CAST(v AS INTEGER) - ((v) < CAST(v AS INTEGER)))) % 3600) + 3600) % 3600)) / 3600) AS h))) ELSE 9007199254740990 END FROM (SELECT new.calc_start_time AS v)) AS at, new.owner_ck AS owner_ck, new.has_flag AS has_flag, new.is_archived AS is_archived ));
  INSERT INTO group_figures_time (ck, field, at, owner_ck, has_flag, is_archived, n, with_excursions, excursions, seconds_out, degree_hours, mkt_sum, mkt_n, level_none, level_0, level_1, level_2, released, rejected, on_hold, mkt_max)
      SELECT kr.*, 1, coalesce(new.calc_violations_all > 0, 0), coalesce(new.calc_violations_all, 0), coalesce(new.calc_violation_duration_all, 0), coalesce(new.calc_degree_hour, 0), coalesce(new.calc_mean_kinetic_temperature, 0), (new.calc_mean_kinetic_temperature IS NOT NULL), (new.alert_level = -1), (new.alert_level = 0), (new.alert_level = 1), (new.alert_level = 2), coalesce((SELECT rc.decision FROM review_current rc WHERE rc.label_report_id = new.id AND rc.company_id = (SELECT k.company_id FROM company_keys k WHERE k.ck = new.ck)) = 'released', 0), coalesce((SELECT rc.decision FROM review_current rc WHERE rc.label_report_id = new.id AND rc.company_id = (SELECT k.company_id FROM company_keys k WHERE k.ck = new.ck)) = 'rejected', 0), coalesce((SELECT rc.decision FROM review_current rc WHERE rc.label_report_id = new.id AND rc.company_id = (SELECT k.company_id FROM company_keys k WHERE k.ck = new.ck)) = 'onHold', 0), CASE WHEN kr.at = 9007199254740990 THEN NULL ELSE new.calc_mean_kinetic_temperature END
        FROM (SELECT * FROM (SELECT new.ck AS ck, 0 AS field, (SELECT CASE WHEN (c GLOB '[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]T[0-9][0-9]:[0-9][0-9]:[0-9][0-9]Z'
      OR (c GLOB '[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]T[0-9][0-9]:[0-9][0-9]:[0-9][0-9].[0-9]*Z'
          AND length(c) <= 30 AND substr(c, 21, length(c) - 21) NOT GLOB '*[^0-9]*'))
    AND strftime('%Y-%m-%dT%H:%M:%S', s, 'unixepoch') = substr(c, 1, 19) AND (s) >= -2208988800 AND (s) < 253402300800
  THEN (SELECT CASE WHEN (strftime('%d', (d) * 86400, 'unixepoch') = '01' OR strftime('%d', (d) * 86400 + 86400, 'unixepoch') = '01') THEN h ELSE d * 24 END FROM (SELECT h, (((h) - ((((h) % 24) + 24) % 24)) / 24) AS d FROM (SELECT (((s) - ((((s) % 3600) + 3600) % 3600)) / 3600) AS h))) ELSE 9007199254740990 END FROM (SELECT new.created AS c, unixepoch(new.created) AS s)) AS at, new.owner_ck AS owner_ck, new.has_flag AS has_flag, new.is_archived AS is_archived  UNION ALL SELECT new.ck AS ck, 1 AS field, (SELECT CASE WHEN v IS NULL THEN 9007199254740991
  WHEN typeof(v) IN ('integer', 'real') AND (v) >= -2208988800 AND (v) < 253402300800
  THEN (SELECT CASE WHEN (strftime('%d', (d) * 86400, 'unixepoch') = '01' OR strftime('%d', (d) * 86400 + 86400, 'unixepoch') = '01') THEN h ELSE d * 24 END FROM (SELECT h, (((h) - ((((h) % 24) + 24) % 24)) / 24) AS d FROM (SELECT ((((CAST(v AS INTEGER) - ((v) < CAST(v AS INTEGER)))) - (((((CAST(v AS INTEGER) - ((v) < CAST(v AS INTEGER)))) % 3600) + 3600) % 3600)) / 3600) AS h))) ELSE 9007199254740990 END FROM (SELECT new.calc_start_time AS v)) AS at, new.owner_ck AS owner_ck, new.has_flag AS has_flag, new.is_archived AS is_archived )) kr
       WHERE NOT EXISTS (SELECT 1 FROM group_figures_time c WHERE c.ck = kr.ck AND c.field = kr.field AND c.at = kr.at AND c.owner_ck = kr.owner_ck AND c.has_flag = kr.has_flag AND c.is_archived = kr.is_archived);
END;

CREATE TRIGGER listing_group_figures_time_decision_insert AFTER INSERT ON review_current WHEN new.decision IS NOT NULL BEGIN
  UPDATE group_figures_time SET released = released + coalesce(new.decision = 'released', 0) - coalesce(NULL = 'released', 0), rejected = rejected + coalesce(new.decision = 'rejected', 0) - coalesce(NULL = 'rejected', 0), on_hold = on_hold + coalesce(new.decision = 'onHold', 0) - coalesce(NULL = 'onHold', 0)
      WHERE (ck, field, at, owner_ck, has_flag, is_archived) IN (SELECT * FROM (SELECT p.ck AS ck, 0 AS field, (SELECT CASE WHEN (c GLOB '[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]T[0-9][0-9]:[0-9][0-9]:[0-9][0-9]Z'
      OR (c GLOB '[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]T[0-9][0-9]:[0-9][0-9]:[0-9][0-9].[0-9]*Z'
          AND length(c) <= 30 AND substr(c, 21, length(c) - 21) NOT GLOB '*[^0-9]*'))
    AND strftime('%Y-%m-%dT%H:%M:%S', s, 'unixepoch') = substr(c, 1, 19) AND (s) >= -2208988800 AND (s) < 253402300800
  THEN (SELECT CASE WHEN (strftime('%d', (d) * 86400, 'unixepoch') = '01' OR strftime('%d', (d) * 86400 + 86400, 'unixepoch') = '01') THEN h ELSE d * 24 END FROM (SELECT h, (((h) - ((((h) % 24) + 24) % 24)) / 24) AS d FROM (SELECT (((s) - ((((s) % 3600) + 3600) % 3600)) / 3600) AS h))) ELSE 9007199254740990 END FROM (SELECT p.created AS c, unixepoch(p.created) AS s)) AS at, p.owner_ck AS owner_ck, p.has_flag AS has_flag, p.is_archived AS is_archived FROM (SELECT * FROM report_listing l WHERE l.ck = (SELECT k.ck FROM company_keys k WHERE k.company_id = new.company_id)
        AND l.rk = (SELECT r.rk FROM report_keys r WHERE r.report_id = new.label_report_id)) p UNION ALL SELECT p.ck AS ck, 1 AS field, (SELECT CASE WHEN v IS NULL THEN 9007199254740991
  WHEN typeof(v) IN ('integer', 'real') AND (v) >= -2208988800 AND (v) < 253402300800
  THEN (SELECT CASE WHEN (strftime('%d', (d) * 86400, 'unixepoch') = '01' OR strftime('%d', (d) * 86400 + 86400, 'unixepoch') = '01') THEN h ELSE d * 24 END FROM (SELECT h, (((h) - ((((h) % 24) + 24) % 24)) / 24) AS d FROM (SELECT ((((CAST(v AS INTEGER) - ((v) < CAST(v AS INTEGER)))) - (((((CAST(v AS INTEGER) - ((v) < CAST(v AS INTEGER)))) % 3600) + 3600) % 3600)) / 3600) AS h))) ELSE 9007199254740990 END FROM (SELECT p.calc_start_time AS v)) AS at, p.owner_ck AS owner_ck, p.has_flag AS has_flag, p.is_archived AS is_archived FROM (SELECT * FROM report_listing l WHERE l.ck = (SELECT k.ck FROM company_keys k WHERE k.company_id = new.company_id)
        AND l.rk = (SELECT r.rk FROM report_keys r WHERE r.report_id = new.label_report_id)) p));
END;

CREATE TRIGGER listing_group_figures_time_decision_update AFTER UPDATE OF decision ON review_current WHEN old.decision IS NOT new.decision BEGIN
  UPDATE group_figures_time SET released = released + coalesce(new.decision = 'released', 0) - coalesce(old.decision = 'released', 0), rejected = rejected + coalesce(new.decision = 'rejected', 0) - coalesce(old.decision = 'rejected', 0), on_hold = on_hold + coalesce(new.decision = 'onHold', 0) - coalesce(old.decision = 'onHold', 0)
      WHERE (ck, field, at, owner_ck, has_flag, is_archived) IN (SELECT * FROM (SELECT p.ck AS ck, 0 AS field, (SELECT CASE WHEN (c GLOB '[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]T[0-9][0-9]:[0-9][0-9]:[0-9][0-9]Z'
      OR (c GLOB '[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]T[0-9][0-9]:[0-9][0-9]:[0-9][0-9].[0-9]*Z'
          AND length(c) <= 30 AND substr(c, 21, length(c) - 21) NOT GLOB '*[^0-9]*'))
    AND strftime('%Y-%m-%dT%H:%M:%S', s, 'unixepoch') = substr(c, 1, 19) AND (s) >= -2208988800 AND (s) < 253402300800
  THEN (SELECT CASE WHEN (strftime('%d', (d) * 86400, 'unixepoch') = '01' OR strftime('%d', (d) * 86400 + 86400, 'unixepoch') = '01') THEN h ELSE d * 24 END FROM (SELECT h, (((h) - ((((h) % 24) + 24) % 24)) / 24) AS d FROM (SELECT (((s) - ((((s) % 3600) + 3600) % 3600)) / 3600) AS h))) ELSE 9007199254740990 END FROM (SELECT p.created AS c, unixepoch(p.created) AS s)) AS at, p.owner_ck AS owner_ck, p.has_flag AS has_flag, p.is_archived AS is_archived FROM (SELECT * FROM report_listing l WHERE l.ck = (SELECT k.ck FROM company_keys k WHERE k.company_id = new.company_id)
        AND l.rk = (SELECT r.rk FROM report_keys r WHERE r.report_id = new.label_report_id)) p UNION ALL SELECT p.ck AS ck, 1 AS field, (SELECT CASE WHEN v IS NULL THEN 9007199254740991
  WHEN typeof(v) IN ('integer', 'real') AND (v) >= -2208988800 AND (v) < 253402300800
  THEN (SELECT CASE WHEN (strftime('%d', (d) * 86400, 'unixepoch') = '01' OR strftime('%d', (d) * 86400 + 86400, 'unixepoch') = '01') THEN h ELSE d * 24 END FROM (SELECT h, (((h) - ((((h) % 24) + 24) % 24)) / 24) AS d FROM (SELECT ((((CAST(v AS INTEGER) - ((v) < CAST(v AS INTEGER)))) - (((((CAST(v AS INTEGER) - ((v) < CAST(v AS INTEGER)))) % 3600) + 3600) % 3600)) / 3600) AS h))) ELSE 9007199254740990 END FROM (SELECT p.calc_start_time AS v)) AS at, p.owner_ck AS owner_ck, p.has_flag AS has_flag, p.is_archived AS is_archived FROM (SELECT * FROM report_listing l WHERE l.ck = (SELECT k.ck FROM company_keys k WHERE k.company_id = new.company_id)
        AND l.rk = (SELECT r.rk FROM report_keys r WHERE r.report_id = new.label_report_id)) p));
END;

CREATE TABLE group_figures_time_totals (
  ck INTEGER NOT NULL,
  field INTEGER NOT NULL,
  at INTEGER NOT NULL,
  is_archived INTEGER NOT NULL,
  n INTEGER NOT NULL,
  with_excursions INTEGER NOT NULL,
  excursions REAL NOT NULL,
  seconds_out REAL NOT NULL,
  degree_hours REAL NOT NULL,
  mkt_sum REAL NOT NULL,
  mkt_n INTEGER NOT NULL,
  level_none INTEGER NOT NULL,
  level_0 INTEGER NOT NULL,
  level_1 INTEGER NOT NULL,
  level_2 INTEGER NOT NULL,
  released INTEGER NOT NULL,
  rejected INTEGER NOT NULL,
  on_hold INTEGER NOT NULL,
  mkt_max ANY,
  PRIMARY KEY (ck, field, at, is_archived)
) STRICT, WITHOUT ROWID;

DELETE FROM group_figures_time_totals;
INSERT INTO group_figures_time_totals (ck, field, at, is_archived, n, with_excursions, excursions, seconds_out, degree_hours, mkt_sum, mkt_n, level_none, level_0, level_1, level_2, released, rejected, on_hold, mkt_max)
  SELECT ck, field, at, is_archived, sum(n), sum(with_excursions), sum(excursions), sum(seconds_out), sum(degree_hours), sum(mkt_sum), sum(mkt_n), sum(level_none), sum(level_0), sum(level_1), sum(level_2), sum(released), sum(rejected), sum(on_hold), max(mkt_max) FROM group_figures_time GROUP BY ck, field, at, is_archived;

CREATE TRIGGER listing_group_figures_time_totals_sum_insert AFTER INSERT ON group_figures_time BEGIN
  UPDATE group_figures_time_totals SET n = n + new.n, with_excursions = with_excursions + new.with_excursions, excursions = excursions + new.excursions, seconds_out = seconds_out + new.seconds_out, degree_hours = degree_hours + new.degree_hours, mkt_sum = mkt_sum + new.mkt_sum, mkt_n = mkt_n + new.mkt_n, level_none = level_none + new.level_none, level_0 = level_0 + new.level_0, level_1 = level_1 + new.level_1, level_2 = level_2 + new.level_2, released = released + new.released, rejected = rejected + new.rejected, on_hold = on_hold + new.on_hold,
        mkt_max = CASE WHEN new.mkt_max IS NULL THEN mkt_max WHEN mkt_max IS NULL OR new.mkt_max > mkt_max THEN new.mkt_max ELSE mkt_max END
      WHERE ck = new.ck AND field = new.field AND at = new.at AND is_archived = new.is_archived;
  INSERT INTO group_figures_time_totals (ck, field, at, is_archived, n, with_excursions, excursions, seconds_out, degree_hours, mkt_sum, mkt_n, level_none, level_0, level_1, level_2, released, rejected, on_hold, mkt_max)
      SELECT new.ck, new.field, new.at, new.is_archived, new.n, new.with_excursions, new.excursions, new.seconds_out, new.degree_hours, new.mkt_sum, new.mkt_n, new.level_none, new.level_0, new.level_1, new.level_2, new.released, new.rejected, new.on_hold, new.mkt_max
      WHERE NOT EXISTS (SELECT 1 FROM group_figures_time_totals c WHERE c.ck = new.ck AND c.field = new.field AND c.at = new.at AND c.is_archived = new.is_archived);
END;

CREATE TRIGGER listing_group_figures_time_totals_sum_update AFTER UPDATE ON group_figures_time BEGIN
  UPDATE group_figures_time_totals SET n = n + new.n - old.n, with_excursions = with_excursions + new.with_excursions - old.with_excursions, excursions = excursions + new.excursions - old.excursions, seconds_out = seconds_out + new.seconds_out - old.seconds_out, degree_hours = degree_hours + new.degree_hours - old.degree_hours, mkt_sum = mkt_sum + new.mkt_sum - old.mkt_sum, mkt_n = mkt_n + new.mkt_n - old.mkt_n, level_none = level_none + new.level_none - old.level_none, level_0 = level_0 + new.level_0 - old.level_0, level_1 = level_1 + new.level_1 - old.level_1, level_2 = level_2 + new.level_2 - old.level_2, released = released + new.released - old.released, rejected = rejected + new.rejected - old.rejected, on_hold = on_hold + new.on_hold - old.on_hold,
        mkt_max = CASE WHEN new.mkt_max IS NOT NULL AND (mkt_max IS NULL OR new.mkt_max > mkt_max) THEN new.mkt_max
          WHEN old.mkt_max IS NOT NULL AND mkt_max = old.mkt_max AND new.mkt_max IS NOT old.mkt_max THEN (SELECT max(g.mkt_max) FROM group_figures_time g WHERE g.ck = new.ck AND g.field = new.field AND g.at = new.at AND g.is_archived = new.is_archived) ELSE mkt_max END
      WHERE ck = new.ck AND field = new.field AND at = new.at AND is_archived = new.is_archived;
END;

CREATE TRIGGER listing_group_figures_time_totals_sum_delete AFTER DELETE ON group_figures_time BEGIN
  UPDATE group_figures_time_totals SET n = n - old.n, with_excursions = with_excursions - old.with_excursions, excursions = excursions - old.excursions, seconds_out = seconds_out - old.seconds_out, degree_hours = degree_hours - old.degree_hours, mkt_sum = mkt_sum - old.mkt_sum, mkt_n = mkt_n - old.mkt_n, level_none = level_none - old.level_none, level_0 = level_0 - old.level_0, level_1 = level_1 - old.level_1, level_2 = level_2 - old.level_2, released = released - old.released, rejected = rejected - old.rejected, on_hold = on_hold - old.on_hold,
        mkt_max = CASE WHEN old.mkt_max IS NOT NULL AND mkt_max = old.mkt_max THEN (SELECT max(g.mkt_max) FROM group_figures_time g WHERE g.ck = old.ck AND g.field = old.field AND g.at = old.at AND g.is_archived = old.is_archived) ELSE mkt_max END
      WHERE ck = old.ck AND field = old.field AND at = old.at AND is_archived = old.is_archived;
  DELETE FROM group_figures_time_totals WHERE n <= 0 AND ck = old.ck AND field = old.field AND at = old.at AND is_archived = old.is_archived;
END;

CREATE TABLE group_figures_split (
  ck INTEGER NOT NULL,
  owner_ck INTEGER NOT NULL,
  status TEXT NOT NULL,
  alert_level INTEGER NOT NULL,
  mode TEXT NOT NULL,
  type TEXT NOT NULL,
  has_flag INTEGER NOT NULL,
  is_archived INTEGER NOT NULL,
  bin_seconds INTEGER NOT NULL,
  bin_degree_hours INTEGER NOT NULL,
  bin_mkt INTEGER NOT NULL,
  n INTEGER NOT NULL,
  with_excursions INTEGER NOT NULL,
  excursions REAL NOT NULL,
  seconds_out REAL NOT NULL,
  degree_hours REAL NOT NULL,
  mkt_sum REAL NOT NULL,
  mkt_n INTEGER NOT NULL,
  level_none INTEGER NOT NULL,
  level_0 INTEGER NOT NULL,
  level_1 INTEGER NOT NULL,
  level_2 INTEGER NOT NULL,
  released INTEGER NOT NULL,
  rejected INTEGER NOT NULL,
  on_hold INTEGER NOT NULL,
  mkt_max ANY,
  PRIMARY KEY (ck, owner_ck, status, alert_level, mode, type, has_flag, is_archived, bin_seconds, bin_degree_hours, bin_mkt)
) STRICT, WITHOUT ROWID;

DELETE FROM group_figures_split;
INSERT INTO group_figures_split (ck, owner_ck, status, alert_level, mode, type, has_flag, is_archived, bin_seconds, bin_degree_hours, bin_mkt, n, with_excursions, excursions, seconds_out, degree_hours, mkt_sum, mkt_n, level_none, level_0, level_1, level_2, released, rejected, on_hold, mkt_max)
  SELECT k.ck, k.owner_ck, k.status, k.alert_level, k.mode, k.type, k.has_flag, k.is_archived, k.bin_seconds, k.bin_degree_hours, k.bin_mkt, count(*), coalesce(sum(p.calc_violations_all > 0), 0), total(p.calc_violations_all), total(p.calc_violation_duration_all), total(p.calc_degree_hour), total(p.calc_mean_kinetic_temperature), count(p.calc_mean_kinetic_temperature), coalesce(sum(p.alert_level = -1), 0), coalesce(sum(p.alert_level = 0), 0), coalesce(sum(p.alert_level = 1), 0), coalesce(sum(p.alert_level = 2), 0), coalesce(sum(k.decision_ = 'released'), 0), coalesce(sum(k.decision_ = 'rejected'), 0), coalesce(sum(k.decision_ = 'onHold'), 0),
         max(p.calc_mean_kinetic_temperature)
    FROM (SELECT x.ck AS ck, x.owner_ck AS owner_ck, x.status AS status, x.alert_level AS alert_level, x.mode AS mode, x.type AS type, x.has_flag AS has_flag, x.is_archived AS is_archived, CASE WHEN x.calc_violation_duration_all = 0 THEN 0
    WHEN x.calc_violation_duration_all > 0 AND x.calc_violation_duration_all <= 3600 THEN 1
    WHEN x.calc_violation_duration_all > 3600 AND x.calc_violation_duration_all <= 21600 THEN 2
    WHEN x.calc_violation_duration_all > 21600 AND x.calc_violation_duration_all <= 86400 THEN 3
    WHEN x.calc_violation_duration_all > 86400 THEN 4 ELSE -1 END AS bin_seconds, CASE WHEN x.calc_degree_hour <= 0 THEN 0
    WHEN x.calc_degree_hour > 0 AND x.calc_degree_hour <= 1 THEN 1
    WHEN x.calc_degree_hour > 1 AND x.calc_degree_hour <= 10 THEN 2
    WHEN x.calc_degree_hour > 10 AND x.calc_degree_hour <= 100 THEN 3
    WHEN x.calc_degree_hour > 100 THEN 4 ELSE -1 END AS bin_degree_hours, CASE WHEN x.calc_mean_kinetic_temperature < 2 THEN 0
    WHEN x.calc_mean_kinetic_temperature >= 2 AND x.calc_mean_kinetic_temperature < 8 THEN 1
    WHEN x.calc_mean_kinetic_temperature >= 8 AND x.calc_mean_kinetic_temperature < 15 THEN 2
    WHEN x.calc_mean_kinetic_temperature >= 15 AND x.calc_mean_kinetic_temperature < 25 THEN 3
    WHEN x.calc_mean_kinetic_temperature >= 25 THEN 4 ELSE -1 END AS bin_mkt , x.rk AS rk_, (SELECT rc.decision FROM review_current rc WHERE rc.label_report_id = x.id AND rc.company_id = (SELECT k.company_id FROM company_keys k WHERE k.ck = x.ck)) AS decision_ FROM report_listing x) k
    JOIN report_listing p ON p.ck = k.ck AND p.rk = k.rk_
   GROUP BY k.ck, k.owner_ck, k.status, k.alert_level, k.mode, k.type, k.has_flag, k.is_archived, k.bin_seconds, k.bin_degree_hours, k.bin_mkt;

CREATE TRIGGER listing_group_figures_split_insert AFTER INSERT ON report_listing BEGIN
  UPDATE group_figures_split SET n = n + 1, with_excursions = with_excursions + coalesce(new.calc_violations_all > 0, 0), excursions = excursions + coalesce(new.calc_violations_all, 0), seconds_out = seconds_out + coalesce(new.calc_violation_duration_all, 0), degree_hours = degree_hours + coalesce(new.calc_degree_hour, 0), mkt_sum = mkt_sum + coalesce(new.calc_mean_kinetic_temperature, 0), mkt_n = mkt_n + (new.calc_mean_kinetic_temperature IS NOT NULL), level_none = level_none + (new.alert_level = -1), level_0 = level_0 + (new.alert_level = 0), level_1 = level_1 + (new.alert_level = 1), level_2 = level_2 + (new.alert_level = 2), released = released + coalesce((SELECT rc.decision FROM review_current rc WHERE rc.label_report_id = new.id AND rc.company_id = (SELECT k.company_id FROM company_keys k WHERE k.ck = new.ck)) = 'released', 0), rejected = rejected + coalesce((SELECT rc.decision FROM review_current rc WHERE rc.label_report_id = new.id AND rc.company_id = (SELECT k.company_id FROM company_keys k WHERE k.ck = new.ck)) = 'rejected', 0), on_hold = on_hold + coalesce((SELECT rc.decision FROM review_current rc WHERE rc.label_report_id = new.id AND rc.company_id = (SELECT k.company_id FROM company_keys k WHERE k.ck = new.ck)) = 'onHold', 0), mkt_max = CASE WHEN new.calc_mean_kinetic_temperature IS NULL THEN mkt_max WHEN mkt_max IS NULL OR new.calc_mean_kinetic_temperature > mkt_max THEN new.calc_mean_kinetic_temperature ELSE mkt_max END
      WHERE (ck, owner_ck, status, alert_level, mode, type, has_flag, is_archived, bin_seconds, bin_degree_hours, bin_mkt) IN (SELECT * FROM (SELECT new.ck AS ck, new.owner_ck AS owner_ck, new.status AS status, new.alert_level AS alert_level, new.mode AS mode, new.type AS type, new.has_flag AS has_flag, new.is_archived AS is_archived, CASE WHEN new.calc_violation_duration_all = 0 THEN 0
    WHEN new.calc_violation_duration_all > 0 AND new.calc_violation_duration_all <= 3600 THEN 1
    WHEN new.calc_violation_duration_all > 3600 AND new.calc_violation_duration_all <= 21600 THEN 2
    WHEN new.calc_violation_duration_all > 21600 AND new.calc_violation_duration_all <= 86400 THEN 3
    WHEN new.calc_violation_duration_all > 86400 THEN 4 ELSE -1 END AS bin_seconds, CASE WHEN new.calc_degree_hour <= 0 THEN 0
    WHEN new.calc_degree_hour > 0 AND new.calc_degree_hour <= 1 THEN 1
    WHEN new.calc_degree_hour > 1 AND new.calc_degree_hour <= 10 THEN 2
    WHEN new.calc_degree_hour > 10 AND new.calc_degree_hour <= 100 THEN 3
    WHEN new.calc_degree_hour > 100 THEN 4 ELSE -1 END AS bin_degree_hours, CASE WHEN new.calc_mean_kinetic_temperature < 2 THEN 0
    WHEN new.calc_mean_kinetic_temperature >= 2 AND new.calc_mean_kinetic_temperature < 8 THEN 1
    WHEN new.calc_mean_kinetic_temperature >= 8 AND new.calc_mean_kinetic_temperature < 15 THEN 2
    WHEN new.calc_mean_kinetic_temperature >= 15 AND new.calc_mean_kinetic_temperature < 25 THEN 3
    WHEN new.calc_mean_kinetic_temperature >= 25 THEN 4 ELSE -1 END AS bin_mkt ));
  INSERT INTO group_figures_split (ck, owner_ck, status, alert_level, mode, type, has_flag, is_archived, bin_seconds, bin_degree_hours, bin_mkt, n, with_excursions, excursions, seconds_out, degree_hours, mkt_sum, mkt_n, level_none, level_0, level_1, level_2, released, rejected, on_hold, mkt_max)
      SELECT kr.*, 1, coalesce(new.calc_violations_all > 0, 0), coalesce(new.calc_violations_all, 0), coalesce(new.calc_violation_duration_all, 0), coalesce(new.calc_degree_hour, 0), coalesce(new.calc_mean_kinetic_temperature, 0), (new.calc_mean_kinetic_temperature IS NOT NULL), (new.alert_level = -1), (new.alert_level = 0), (new.alert_level = 1), (new.alert_level = 2), coalesce((SELECT rc.decision FROM review_current rc WHERE rc.label_report_id = new.id AND rc.company_id = (SELECT k.company_id FROM company_keys k WHERE k.ck = new.ck)) = 'released', 0), coalesce((SELECT rc.decision FROM review_current rc WHERE rc.label_report_id = new.id AND rc.company_id = (SELECT k.company_id FROM company_keys k WHERE k.ck = new.ck)) = 'rejected', 0), coalesce((SELECT rc.decision FROM review_current rc WHERE rc.label_report_id = new.id AND rc.company_id = (SELECT k.company_id FROM company_keys k WHERE k.ck = new.ck)) = 'onHold', 0), new.calc_mean_kinetic_temperature
        FROM (SELECT * FROM (SELECT new.ck AS ck, new.owner_ck AS owner_ck, new.status AS status, new.alert_level AS alert_level, new.mode AS mode, new.type AS type, new.has_flag AS has_flag, new.is_archived AS is_archived, CASE WHEN new.calc_violation_duration_all = 0 THEN 0
    WHEN new.calc_violation_duration_all > 0 AND new.calc_violation_duration_all <= 3600 THEN 1
    WHEN new.calc_violation_duration_all > 3600 AND new.calc_violation_duration_all <= 21600 THEN 2
    WHEN new.calc_violation_duration_all > 21600 AND new.calc_violation_duration_all <= 86400 THEN 3
    WHEN new.calc_violation_duration_all > 86400 THEN 4 ELSE -1 END AS bin_seconds, CASE WHEN new.calc_degree_hour <= 0 THEN 0
    WHEN new.calc_degree_hour > 0 AND new.calc_degree_hour <= 1 THEN 1
    WHEN new.calc_degree_hour > 1 AND new.calc_degree_hour <= 10 THEN 2
    WHEN new.calc_degree_hour > 10 AND new.calc_degree_hour <= 100 THEN 3
    WHEN new.calc_degree_hour > 100 THEN 4 ELSE -1 END AS bin_degree_hours, CASE WHEN new.calc_mean_kinetic_temperature < 2 THEN 0
    WHEN new.calc_mean_kinetic_temperature >= 2 AND new.calc_mean_kinetic_temperature < 8 THEN 1
    WHEN new.calc_mean_kinetic_temperature >= 8 AND new.calc_mean_kinetic_temperature < 15 THEN 2
    WHEN new.calc_mean_kinetic_temperature >= 15 AND new.calc_mean_kinetic_temperature < 25 THEN 3
    WHEN new.calc_mean_kinetic_temperature >= 25 THEN 4 ELSE -1 END AS bin_mkt )) kr
       WHERE NOT EXISTS (SELECT 1 FROM group_figures_split c WHERE c.ck = kr.ck AND c.owner_ck = kr.owner_ck AND c.status = kr.status AND c.alert_level = kr.alert_level AND c.mode = kr.mode AND c.type = kr.type AND c.has_flag = kr.has_flag AND c.is_archived = kr.is_archived AND c.bin_seconds = kr.bin_seconds AND c.bin_degree_hours = kr.bin_degree_hours AND c.bin_mkt = kr.bin_mkt);
END;

CREATE TRIGGER listing_group_figures_split_delete AFTER DELETE ON report_listing BEGIN
  UPDATE group_figures_split SET n = n - 1, with_excursions = with_excursions - coalesce(old.calc_violations_all > 0, 0), excursions = excursions - coalesce(old.calc_violations_all, 0), seconds_out = seconds_out - coalesce(old.calc_violation_duration_all, 0), degree_hours = degree_hours - coalesce(old.calc_degree_hour, 0), mkt_sum = mkt_sum - coalesce(old.calc_mean_kinetic_temperature, 0), mkt_n = mkt_n - (old.calc_mean_kinetic_temperature IS NOT NULL), level_none = level_none - (old.alert_level = -1), level_0 = level_0 - (old.alert_level = 0), level_1 = level_1 - (old.alert_level = 1), level_2 = level_2 - (old.alert_level = 2), released = released - coalesce((SELECT rc.decision FROM review_current rc WHERE rc.label_report_id = old.id AND rc.company_id = (SELECT k.company_id FROM company_keys k WHERE k.ck = old.ck)) = 'released', 0), rejected = rejected - coalesce((SELECT rc.decision FROM review_current rc WHERE rc.label_report_id = old.id AND rc.company_id = (SELECT k.company_id FROM company_keys k WHERE k.ck = old.ck)) = 'rejected', 0), on_hold = on_hold - coalesce((SELECT rc.decision FROM review_current rc WHERE rc.label_report_id = old.id AND rc.company_id = (SELECT k.company_id FROM company_keys k WHERE k.ck = old.ck)) = 'onHold', 0),
        mkt_max = CASE WHEN old.calc_mean_kinetic_temperature IS NOT NULL AND mkt_max = old.calc_mean_kinetic_temperature AND NOT EXISTS (SELECT 1 FROM report_listing l INDEXED BY listing_mean_kinetic_temperature
      WHERE l.ck = group_figures_split.ck AND l.calc_mean_kinetic_temperature = old.calc_mean_kinetic_temperature
        AND l.owner_ck = group_figures_split.owner_ck AND l.status = group_figures_split.status AND l.alert_level = group_figures_split.alert_level AND l.mode = group_figures_split.mode AND l.type = group_figures_split.type AND l.has_flag = group_figures_split.has_flag AND l.is_archived = group_figures_split.is_archived
        AND (CASE WHEN l.calc_violation_duration_all = 0 THEN 0
    WHEN l.calc_violation_duration_all > 0 AND l.calc_violation_duration_all <= 3600 THEN 1
    WHEN l.calc_violation_duration_all > 3600 AND l.calc_violation_duration_all <= 21600 THEN 2
    WHEN l.calc_violation_duration_all > 21600 AND l.calc_violation_duration_all <= 86400 THEN 3
    WHEN l.calc_violation_duration_all > 86400 THEN 4 ELSE -1 END) = group_figures_split.bin_seconds AND (CASE WHEN l.calc_degree_hour <= 0 THEN 0
    WHEN l.calc_degree_hour > 0 AND l.calc_degree_hour <= 1 THEN 1
    WHEN l.calc_degree_hour > 1 AND l.calc_degree_hour <= 10 THEN 2
    WHEN l.calc_degree_hour > 10 AND l.calc_degree_hour <= 100 THEN 3
    WHEN l.calc_degree_hour > 100 THEN 4 ELSE -1 END) = group_figures_split.bin_degree_hours AND (CASE WHEN l.calc_mean_kinetic_temperature < 2 THEN 0
    WHEN l.calc_mean_kinetic_temperature >= 2 AND l.calc_mean_kinetic_temperature < 8 THEN 1
    WHEN l.calc_mean_kinetic_temperature >= 8 AND l.calc_mean_kinetic_temperature < 15 THEN 2
    WHEN l.calc_mean_kinetic_temperature >= 15 AND l.calc_mean_kinetic_temperature < 25 THEN 3
    WHEN l.calc_mean_kinetic_temperature >= 25 THEN 4 ELSE -1 END) = group_figures_split.bin_mkt) THEN (SELECT l.calc_mean_kinetic_temperature FROM report_listing l
      WHERE l.ck = group_figures_split.ck AND l.calc_mean_kinetic_temperature <= old.calc_mean_kinetic_temperature
        AND l.owner_ck = group_figures_split.owner_ck AND l.status = group_figures_split.status AND l.alert_level = group_figures_split.alert_level AND l.mode = group_figures_split.mode AND l.type = group_figures_split.type AND l.has_flag = group_figures_split.has_flag AND l.is_archived = group_figures_split.is_archived
        AND (CASE WHEN l.calc_violation_duration_all = 0 THEN 0
    WHEN l.calc_violation_duration_all > 0 AND l.calc_violation_duration_all <= 3600 THEN 1
    WHEN l.calc_violation_duration_all > 3600 AND l.calc_violation_duration_all <= 21600 THEN 2
    WHEN l.calc_violation_duration_all > 21600 AND l.calc_violation_duration_all <= 86400 THEN 3
    WHEN l.calc_violation_duration_all > 86400 THEN 4 ELSE -1 END) = group_figures_split.bin_seconds AND (CASE WHEN l.calc_degree_hour <= 0 THEN 0
    WHEN l.calc_degree_hour > 0 AND l.calc_degree_hour <= 1 THEN 1
    WHEN l.calc_degree_hour > 1 AND l.calc_degree_hour <= 10 THEN 2
    WHEN l.calc_degree_hour > 10 AND l.calc_degree_hour <= 100 THEN 3
    WHEN l.calc_degree_hour > 100 THEN 4 ELSE -1 END) = group_figures_split.bin_degree_hours AND (CASE WHEN l.calc_mean_kinetic_temperature < 2 THEN 0
    WHEN l.calc_mean_kinetic_temperature >= 2 AND l.calc_mean_kinetic_temperature < 8 THEN 1
    WHEN l.calc_mean_kinetic_temperature >= 8 AND l.calc_mean_kinetic_temperature < 15 THEN 2
    WHEN l.calc_mean_kinetic_temperature >= 15 AND l.calc_mean_kinetic_temperature < 25 THEN 3
    WHEN l.calc_mean_kinetic_temperature >= 25 THEN 4 ELSE -1 END) = group_figures_split.bin_mkt
      ORDER BY l.calc_mean_kinetic_temperature DESC LIMIT 1) ELSE mkt_max END
      WHERE (ck, owner_ck, status, alert_level, mode, type, has_flag, is_archived, bin_seconds, bin_degree_hours, bin_mkt) IN (SELECT * FROM (SELECT old.ck AS ck, old.owner_ck AS owner_ck, old.status AS status, old.alert_level AS alert_level, old.mode AS mode, old.type AS type, old.has_flag AS has_flag, old.is_archived AS is_archived, CASE WHEN old.calc_violation_duration_all = 0 THEN 0
    WHEN old.calc_violation_duration_all > 0 AND old.calc_violation_duration_all <= 3600 THEN 1
    WHEN old.calc_violation_duration_all > 3600 AND old.calc_violation_duration_all <= 21600 THEN 2
    WHEN old.calc_violation_duration_all > 21600 AND old.calc_violation_duration_all <= 86400 THEN 3
    WHEN old.calc_violation_duration_all > 86400 THEN 4 ELSE -1 END AS bin_seconds, CASE WHEN old.calc_degree_hour <= 0 THEN 0
    WHEN old.calc_degree_hour > 0 AND old.calc_degree_hour <= 1 THEN 1
    WHEN old.calc_degree_hour > 1 AND old.calc_degree_hour <= 10 THEN 2
    WHEN old.calc_degree_hour > 10 AND old.calc_degree_hour <= 100 THEN 3
    WHEN old.calc_degree_hour > 100 THEN 4 ELSE -1 END AS bin_degree_hours, CASE WHEN old.calc_mean_kinetic_temperature < 2 THEN 0
    WHEN old.calc_mean_kinetic_temperature >= 2 AND old.calc_mean_kinetic_temperature < 8 THEN 1
    WHEN old.calc_mean_kinetic_temperature >= 8 AND old.calc_mean_kinetic_temperature < 15 THEN 2
    WHEN old.calc_mean_kinetic_temperature >= 15 AND old.calc_mean_kinetic_temperature < 25 THEN 3
    WHEN old.calc_mean_kinetic_temperature >= 25 THEN 4 ELSE -1 END AS bin_mkt ));
  DELETE FROM group_figures_split WHERE n <= 0 AND (ck, owner_ck, status, alert_level, mode, type, has_flag, is_archived, bin_seconds, bin_degree_hours, bin_mkt) IN (SELECT * FROM (SELECT old.ck AS ck, old.owner_ck AS owner_ck, old.status AS status, old.alert_level AS alert_level, old.mode AS mode, old.type AS type, old.has_flag AS has_flag, old.is_archived AS is_archived, CASE WHEN old.calc_violation_duration_all = 0 THEN 0
    WHEN old.calc_violation_duration_all > 0 AND old.calc_violation_duration_all <= 3600 THEN 1
    WHEN old.calc_violation_duration_all > 3600 AND old.calc_violation_duration_all <= 21600 THEN 2
    WHEN old.calc_violation_duration_all > 21600 AND old.calc_violation_duration_all <= 86400 THEN 3
    WHEN old.calc_violation_duration_all > 86400 THEN 4 ELSE -1 END AS bin_seconds, CASE WHEN old.calc_degree_hour <= 0 THEN 0
    WHEN old.calc_degree_hour > 0 AND old.calc_degree_hour <= 1 THEN 1
    WHEN old.calc_degree_hour > 1 AND old.calc_degree_hour <= 10 THEN 2
    WHEN old.calc_degree_hour > 10 AND old.calc_degree_hour <= 100 THEN 3
    WHEN old.calc_degree_hour > 100 THEN 4 ELSE -1 END AS bin_degree_hours, CASE WHEN old.calc_mean_kinetic_temperature < 2 THEN 0
    WHEN old.calc_mean_kinetic_temperature >= 2 AND old.calc_mean_kinetic_temperature < 8 THEN 1
    WHEN old.calc_mean_kinetic_temperature >= 8 AND old.calc_mean_kinetic_temperature < 15 THEN 2
    WHEN old.calc_mean_kinetic_temperature >= 15 AND old.calc_mean_kinetic_temperature < 25 THEN 3
    WHEN old.calc_mean_kinetic_temperature >= 25 THEN 4 ELSE -1 END AS bin_mkt ));
END;

CREATE TRIGGER listing_group_figures_split_update AFTER UPDATE OF owner_ck, status, alert_level, mode, type, has_flag, is_archived, calc_violations_all, calc_violation_duration_all, calc_degree_hour, calc_mean_kinetic_temperature ON report_listing
WHEN old.owner_ck IS NOT new.owner_ck OR old.status IS NOT new.status OR old.alert_level IS NOT new.alert_level OR old.mode IS NOT new.mode OR old.type IS NOT new.type OR old.has_flag IS NOT new.has_flag OR old.is_archived IS NOT new.is_archived OR old.calc_violations_all IS NOT new.calc_violations_all OR old.calc_violation_duration_all IS NOT new.calc_violation_duration_all OR old.calc_degree_hour IS NOT new.calc_degree_hour OR old.calc_mean_kinetic_temperature IS NOT new.calc_mean_kinetic_temperature BEGIN
  UPDATE group_figures_split SET n = n - 1, with_excursions = with_excursions - coalesce(old.calc_violations_all > 0, 0), excursions = excursions - coalesce(old.calc_violations_all, 0), seconds_out = seconds_out - coalesce(old.calc_violation_duration_all, 0), degree_hours = degree_hours - coalesce(old.calc_degree_hour, 0), mkt_sum = mkt_sum - coalesce(old.calc_mean_kinetic_temperature, 0), mkt_n = mkt_n - (old.calc_mean_kinetic_temperature IS NOT NULL), level_none = level_none - (old.alert_level = -1), level_0 = level_0 - (old.alert_level = 0), level_1 = level_1 - (old.alert_level = 1), level_2 = level_2 - (old.alert_level = 2), released = released - coalesce((SELECT rc.decision FROM review_current rc WHERE rc.label_report_id = old.id AND rc.company_id = (SELECT k.company_id FROM company_keys k WHERE k.ck = old.ck)) = 'released', 0), rejected = rejected - coalesce((SELECT rc.decision FROM review_current rc WHERE rc.label_report_id = old.id AND rc.company_id = (SELECT k.company_id FROM company_keys k WHERE k.ck = old.ck)) = 'rejected', 0), on_hold = on_hold - coalesce((SELECT rc.decision FROM review_current rc WHERE rc.label_report_id = old.id AND rc.company_id = (SELECT k.company_id FROM company_keys k WHERE k.ck = old.ck)) = 'onHold', 0),
        mkt_max = CASE WHEN old.calc_mean_kinetic_temperature IS NOT NULL AND mkt_max = old.calc_mean_kinetic_temperature AND NOT EXISTS (SELECT 1 FROM report_listing l INDEXED BY listing_mean_kinetic_temperature
      WHERE l.ck = group_figures_split.ck AND l.calc_mean_kinetic_temperature = old.calc_mean_kinetic_temperature
        AND l.owner_ck = group_figures_split.owner_ck AND l.status = group_figures_split.status AND l.alert_level = group_figures_split.alert_level AND l.mode = group_figures_split.mode AND l.type = group_figures_split.type AND l.has_flag = group_figures_split.has_flag AND l.is_archived = group_figures_split.is_archived
        AND (CASE WHEN l.calc_violation_duration_all = 0 THEN 0
    WHEN l.calc_violation_duration_all > 0 AND l.calc_violation_duration_all <= 3600 THEN 1
    WHEN l.calc_violation_duration_all > 3600 AND l.calc_violation_duration_all <= 21600 THEN 2
    WHEN l.calc_violation_duration_all > 21600 AND l.calc_violation_duration_all <= 86400 THEN 3
    WHEN l.calc_violation_duration_all > 86400 THEN 4 ELSE -1 END) = group_figures_split.bin_seconds AND (CASE WHEN l.calc_degree_hour <= 0 THEN 0
    WHEN l.calc_degree_hour > 0 AND l.calc_degree_hour <= 1 THEN 1
    WHEN l.calc_degree_hour > 1 AND l.calc_degree_hour <= 10 THEN 2
    WHEN l.calc_degree_hour > 10 AND l.calc_degree_hour <= 100 THEN 3
    WHEN l.calc_degree_hour > 100 THEN 4 ELSE -1 END) = group_figures_split.bin_degree_hours AND (CASE WHEN l.calc_mean_kinetic_temperature < 2 THEN 0
    WHEN l.calc_mean_kinetic_temperature >= 2 AND l.calc_mean_kinetic_temperature < 8 THEN 1
    WHEN l.calc_mean_kinetic_temperature >= 8 AND l.calc_mean_kinetic_temperature < 15 THEN 2
    WHEN l.calc_mean_kinetic_temperature >= 15 AND l.calc_mean_kinetic_temperature < 25 THEN 3
    WHEN l.calc_mean_kinetic_temperature >= 25 THEN 4 ELSE -1 END) = group_figures_split.bin_mkt) THEN (SELECT l.calc_mean_kinetic_temperature FROM report_listing l
      WHERE l.ck = group_figures_split.ck AND l.calc_mean_kinetic_temperature <= old.calc_mean_kinetic_temperature
        AND l.owner_ck = group_figures_split.owner_ck AND l.status = group_figures_split.status AND l.alert_level = group_figures_split.alert_level AND l.mode = group_figures_split.mode AND l.type = group_figures_split.type AND l.has_flag = group_figures_split.has_flag AND l.is_archived = group_figures_split.is_archived
        AND (CASE WHEN l.calc_violation_duration_all = 0 THEN 0
    WHEN l.calc_violation_duration_all > 0 AND l.calc_violation_duration_all <= 3600 THEN 1
    WHEN l.calc_violation_duration_all > 3600 AND l.calc_violation_duration_all <= 21600 THEN 2
    WHEN l.calc_violation_duration_all > 21600 AND l.calc_violation_duration_all <= 86400 THEN 3
    WHEN l.calc_violation_duration_all > 86400 THEN 4 ELSE -1 END) = group_figures_split.bin_seconds AND (CASE WHEN l.calc_degree_hour <= 0 THEN 0
    WHEN l.calc_degree_hour > 0 AND l.calc_degree_hour <= 1 THEN 1
    WHEN l.calc_degree_hour > 1 AND l.calc_degree_hour <= 10 THEN 2
    WHEN l.calc_degree_hour > 10 AND l.calc_degree_hour <= 100 THEN 3
    WHEN l.calc_degree_hour > 100 THEN 4 ELSE -1 END) = group_figures_split.bin_degree_hours AND (CASE WHEN l.calc_mean_kinetic_temperature < 2 THEN 0
    WHEN l.calc_mean_kinetic_temperature >= 2 AND l.calc_mean_kinetic_temperature < 8 THEN 1
    WHEN l.calc_mean_kinetic_temperature >= 8 AND l.calc_mean_kinetic_temperature < 15 THEN 2
    WHEN l.calc_mean_kinetic_temperature >= 15 AND l.calc_mean_kinetic_temperature < 25 THEN 3
    WHEN l.calc_mean_kinetic_temperature >= 25 THEN 4 ELSE -1 END) = group_figures_split.bin_mkt
      ORDER BY l.calc_mean_kinetic_temperature DESC LIMIT 1) ELSE mkt_max END
      WHERE (ck, owner_ck, status, alert_level, mode, type, has_flag, is_archived, bin_seconds, bin_degree_hours, bin_mkt) IN (SELECT * FROM (SELECT old.ck AS ck, old.owner_ck AS owner_ck, old.status AS status, old.alert_level AS alert_level, old.mode AS mode, old.type AS type, old.has_flag AS has_flag, old.is_archived AS is_archived, CASE WHEN old.calc_violation_duration_all = 0 THEN 0
    WHEN old.calc_violation_duration_all > 0 AND old.calc_violation_duration_all <= 3600 THEN 1
    WHEN old.calc_violation_duration_all > 3600 AND old.calc_violation_duration_all <= 21600 THEN 2
    WHEN old.calc_violation_duration_all > 21600 AND old.calc_violation_duration_all <= 86400 THEN 3
    WHEN old.calc_violation_duration_all > 86400 THEN 4 ELSE -1 END AS bin_seconds, CASE WHEN old.calc_degree_hour <= 0 THEN 0
    WHEN old.calc_degree_hour > 0 AND old.calc_degree_hour <= 1 THEN 1
    WHEN old.calc_degree_hour > 1 AND old.calc_degree_hour <= 10 THEN 2
    WHEN old.calc_degree_hour > 10 AND old.calc_degree_hour <= 100 THEN 3
    WHEN old.calc_degree_hour > 100 THEN 4 ELSE -1 END AS bin_degree_hours, CASE WHEN old.calc_mean_kinetic_temperature < 2 THEN 0
    WHEN old.calc_mean_kinetic_temperature >= 2 AND old.calc_mean_kinetic_temperature < 8 THEN 1
    WHEN old.calc_mean_kinetic_temperature >= 8 AND old.calc_mean_kinetic_temperature < 15 THEN 2
    WHEN old.calc_mean_kinetic_temperature >= 15 AND old.calc_mean_kinetic_temperature < 25 THEN 3
    WHEN old.calc_mean_kinetic_temperature >= 25 THEN 4 ELSE -1 END AS bin_mkt ));
  DELETE FROM group_figures_split WHERE n <= 0 AND (ck, owner_ck, status, alert_level, mode, type, has_flag, is_archived, bin_seconds, bin_degree_hours, bin_mkt) IN (SELECT * FROM (SELECT old.ck AS ck, old.owner_ck AS owner_ck, old.status AS status, old.alert_level AS alert_level, old.mode AS mode, old.type AS type, old.has_flag AS has_flag, old.is_archived AS is_archived, CASE WHEN old.calc_violation_duration_all = 0 THEN 0
    WHEN old.calc_violation_duration_all > 0 AND old.calc_violation_duration_all <= 3600 THEN 1
    WHEN old.calc_violation_duration_all > 3600 AND old.calc_violation_duration_all <= 21600 THEN 2
    WHEN old.calc_violation_duration_all > 21600 AND old.calc_violation_duration_all <= 86400 THEN 3
    WHEN old.calc_violation_duration_all > 86400 THEN 4 ELSE -1 END AS bin_seconds, CASE WHEN old.calc_degree_hour <= 0 THEN 0
    WHEN old.calc_degree_hour > 0 AND old.calc_degree_hour <= 1 THEN 1
    WHEN old.calc_degree_hour > 1 AND old.calc_degree_hour <= 10 THEN 2
    WHEN old.calc_degree_hour > 10 AND old.calc_degree_hour <= 100 THEN 3
    WHEN old.calc_degree_hour > 100 THEN 4 ELSE -1 END AS bin_degree_hours, CASE WHEN old.calc_mean_kinetic_temperature < 2 THEN 0
    WHEN old.calc_mean_kinetic_temperature >= 2 AND old.calc_mean_kinetic_temperature < 8 THEN 1
    WHEN old.calc_mean_kinetic_temperature >= 8 AND old.calc_mean_kinetic_temperature < 15 THEN 2
    WHEN old.calc_mean_kinetic_temperature >= 15 AND old.calc_mean_kinetic_temperature < 25 THEN 3
    WHEN old.calc_mean_kinetic_temperature >= 25 THEN 4 ELSE -1 END AS bin_mkt ));
  UPDATE group_figures_split SET n = n + 1, with_excursions = with_excursions + coalesce(new.calc_violations_all > 0, 0), excursions = excursions + coalesce(new.calc_violations_all, 0), seconds_out = seconds_out + coalesce(new.calc_violation_duration_all, 0), degree_hours = degree_hours + coalesce(new.calc_degree_hour, 0), mkt_sum = mkt_sum + coalesce(new.calc_mean_kinetic_temperature, 0), mkt_n = mkt_n + (new.calc_mean_kinetic_temperature IS NOT NULL), level_none = level_none + (new.alert_level = -1), level_0 = level_0 + (new.alert_level = 0), level_1 = level_1 + (new.alert_level = 1), level_2 = level_2 + (new.alert_level = 2), released = released + coalesce((SELECT rc.decision FROM review_current rc WHERE rc.label_report_id = new.id AND rc.company_id = (SELECT k.company_id FROM company_keys k WHERE k.ck = new.ck)) = 'released', 0), rejected = rejected + coalesce((SELECT rc.decision FROM review_current rc WHERE rc.label_report_id = new.id AND rc.company_id = (SELECT k.company_id FROM company_keys k WHERE k.ck = new.ck)) = 'rejected', 0), on_hold = on_hold + coalesce((SELECT rc.decision FROM review_current rc WHERE rc.label_report_id = new.id AND rc.company_id = (SELECT k.company_id FROM company_keys k WHERE k.ck = new.ck)) = 'onHold', 0), mkt_max = CASE WHEN new.calc_mean_kinetic_temperature IS NULL THEN mkt_max WHEN mkt_max IS NULL OR new.calc_mean_kinetic_temperature > mkt_max THEN new.calc_mean_kinetic_temperature ELSE mkt_max END
      WHERE (ck, owner_ck, status, alert_level, mode, type, has_flag, is_archived, bin_seconds, bin_degree_hours, bin_mkt) IN (SELECT * FROM (SELECT new.ck AS ck, new.owner_ck AS owner_ck, new.status AS status, new.alert_level AS alert_level, new.mode AS mode, new.type AS type, new.has_flag AS has_flag, new.is_archived AS is_archived, CASE WHEN new.calc_violation_duration_all = 0 THEN 0
    WHEN new.calc_violation_duration_all > 0 AND new.calc_violation_duration_all <= 3600 THEN 1
    WHEN new.calc_violation_duration_all > 3600 AND new.calc_violation_duration_all <= 21600 THEN 2
    WHEN new.calc_violation_duration_all > 21600 AND new.calc_violation_duration_all <= 86400 THEN 3
    WHEN new.calc_violation_duration_all > 86400 THEN 4 ELSE -1 END AS bin_seconds, CASE WHEN new.calc_degree_hour <= 0 THEN 0
    WHEN new.calc_degree_hour > 0 AND new.calc_degree_hour <= 1 THEN 1
    WHEN new.calc_degree_hour > 1 AND new.calc_degree_hour <= 10 THEN 2
    WHEN new.calc_degree_hour > 10 AND new.calc_degree_hour <= 100 THEN 3
    WHEN new.calc_degree_hour > 100 THEN 4 ELSE -1 END AS bin_degree_hours, CASE WHEN new.calc_mean_kinetic_temperature < 2 THEN 0
    WHEN new.calc_mean_kinetic_temperature >= 2 AND new.calc_mean_kinetic_temperature < 8 THEN 1
    WHEN new.calc_mean_kinetic_temperature >= 8 AND new.calc_mean_kinetic_temperature < 15 THEN 2
    WHEN new.calc_mean_kinetic_temperature >= 15 AND new.calc_mean_kinetic_temperature < 25 THEN 3
    WHEN new.calc_mean_kinetic_temperature >= 25 THEN 4 ELSE -1 END AS bin_mkt ));
  INSERT INTO group_figures_split (ck, owner_ck, status, alert_level, mode, type, has_flag, is_archived, bin_seconds, bin_degree_hours, bin_mkt, n, with_excursions, excursions, seconds_out, degree_hours, mkt_sum, mkt_n, level_none, level_0, level_1, level_2, released, rejected, on_hold, mkt_max)
      SELECT kr.*, 1, coalesce(new.calc_violations_all > 0, 0), coalesce(new.calc_violations_all, 0), coalesce(new.calc_violation_duration_all, 0), coalesce(new.calc_degree_hour, 0), coalesce(new.calc_mean_kinetic_temperature, 0), (new.calc_mean_kinetic_temperature IS NOT NULL), (new.alert_level = -1), (new.alert_level = 0), (new.alert_level = 1), (new.alert_level = 2), coalesce((SELECT rc.decision FROM review_current rc WHERE rc.label_report_id = new.id AND rc.company_id = (SELECT k.company_id FROM company_keys k WHERE k.ck = new.ck)) = 'released', 0), coalesce((SELECT rc.decision FROM review_current rc WHERE rc.label_report_id = new.id AND rc.company_id = (SELECT k.company_id FROM company_keys k WHERE k.ck = new.ck)) = 'rejected', 0), coalesce((SELECT rc.decision FROM review_current rc WHERE rc.label_report_id = new.id AND rc.company_id = (SELECT k.company_id FROM company_keys k WHERE k.ck = new.ck)) = 'onHold', 0), new.calc_mean_kinetic_temperature
        FROM (SELECT * FROM (SELECT new.ck AS ck, new.owner_ck AS owner_ck, new.status AS status, new.alert_level AS alert_level, new.mode AS mode, new.type AS type, new.has_flag AS has_flag, new.is_archived AS is_archived, CASE WHEN new.calc_violation_duration_all = 0 THEN 0
    WHEN new.calc_violation_duration_all > 0 AND new.calc_violation_duration_all <= 3600 THEN 1
    WHEN new.calc_violation_duration_all > 3600 AND new.calc_violation_duration_all <= 21600 THEN 2
    WHEN new.calc_violation_duration_all > 21600 AND new.calc_violation_duration_all <= 86400 THEN 3
    WHEN new.calc_violation_duration_all > 86400 THEN 4 ELSE -1 END AS bin_seconds, CASE WHEN new.calc_degree_hour <= 0 THEN 0
    WHEN new.calc_degree_hour > 0 AND new.calc_degree_hour <= 1 THEN 1
    WHEN new.calc_degree_hour > 1 AND new.calc_degree_hour <= 10 THEN 2
    WHEN new.calc_degree_hour > 10 AND new.calc_degree_hour <= 100 THEN 3
    WHEN new.calc_degree_hour > 100 THEN 4 ELSE -1 END AS bin_degree_hours, CASE WHEN new.calc_mean_kinetic_temperature < 2 THEN 0
    WHEN new.calc_mean_kinetic_temperature >= 2 AND new.calc_mean_kinetic_temperature < 8 THEN 1
    WHEN new.calc_mean_kinetic_temperature >= 8 AND new.calc_mean_kinetic_temperature < 15 THEN 2
    WHEN new.calc_mean_kinetic_temperature >= 15 AND new.calc_mean_kinetic_temperature < 25 THEN 3
    WHEN new.calc_mean_kinetic_temperature >= 25 THEN 4 ELSE -1 END AS bin_mkt )) kr
       WHERE NOT EXISTS (SELECT 1 FROM group_figures_split c WHERE c.ck = kr.ck AND c.owner_ck = kr.owner_ck AND c.status = kr.status AND c.alert_level = kr.alert_level AND c.mode = kr.mode AND c.type = kr.type AND c.has_flag = kr.has_flag AND c.is_archived = kr.is_archived AND c.bin_seconds = kr.bin_seconds AND c.bin_degree_hours = kr.bin_degree_hours AND c.bin_mkt = kr.bin_mkt);
END;

CREATE TRIGGER listing_group_figures_split_decision_insert AFTER INSERT ON review_current WHEN new.decision IS NOT NULL BEGIN
  UPDATE group_figures_split SET released = released + coalesce(new.decision = 'released', 0) - coalesce(NULL = 'released', 0), rejected = rejected + coalesce(new.decision = 'rejected', 0) - coalesce(NULL = 'rejected', 0), on_hold = on_hold + coalesce(new.decision = 'onHold', 0) - coalesce(NULL = 'onHold', 0)
      WHERE (ck, owner_ck, status, alert_level, mode, type, has_flag, is_archived, bin_seconds, bin_degree_hours, bin_mkt) IN (SELECT * FROM (SELECT p.ck AS ck, p.owner_ck AS owner_ck, p.status AS status, p.alert_level AS alert_level, p.mode AS mode, p.type AS type, p.has_flag AS has_flag, p.is_archived AS is_archived, CASE WHEN p.calc_violation_duration_all = 0 THEN 0
    WHEN p.calc_violation_duration_all > 0 AND p.calc_violation_duration_all <= 3600 THEN 1
    WHEN p.calc_violation_duration_all > 3600 AND p.calc_violation_duration_all <= 21600 THEN 2
    WHEN p.calc_violation_duration_all > 21600 AND p.calc_violation_duration_all <= 86400 THEN 3
    WHEN p.calc_violation_duration_all > 86400 THEN 4 ELSE -1 END AS bin_seconds, CASE WHEN p.calc_degree_hour <= 0 THEN 0
    WHEN p.calc_degree_hour > 0 AND p.calc_degree_hour <= 1 THEN 1
    WHEN p.calc_degree_hour > 1 AND p.calc_degree_hour <= 10 THEN 2
    WHEN p.calc_degree_hour > 10 AND p.calc_degree_hour <= 100 THEN 3
    WHEN p.calc_degree_hour > 100 THEN 4 ELSE -1 END AS bin_degree_hours, CASE WHEN p.calc_mean_kinetic_temperature < 2 THEN 0
    WHEN p.calc_mean_kinetic_temperature >= 2 AND p.calc_mean_kinetic_temperature < 8 THEN 1
    WHEN p.calc_mean_kinetic_temperature >= 8 AND p.calc_mean_kinetic_temperature < 15 THEN 2
    WHEN p.calc_mean_kinetic_temperature >= 15 AND p.calc_mean_kinetic_temperature < 25 THEN 3
    WHEN p.calc_mean_kinetic_temperature >= 25 THEN 4 ELSE -1 END AS bin_mkt FROM (SELECT * FROM report_listing l WHERE l.ck = (SELECT k.ck FROM company_keys k WHERE k.company_id = new.company_id)
        AND l.rk = (SELECT r.rk FROM report_keys r WHERE r.report_id = new.label_report_id)) p));
END;

CREATE TRIGGER listing_group_figures_split_decision_update AFTER UPDATE OF decision ON review_current WHEN old.decision IS NOT new.decision BEGIN
  UPDATE group_figures_split SET released = released + coalesce(new.decision = 'released', 0) - coalesce(old.decision = 'released', 0), rejected = rejected + coalesce(new.decision = 'rejected', 0) - coalesce(old.decision = 'rejected', 0), on_hold = on_hold + coalesce(new.decision = 'onHold', 0) - coalesce(old.decision = 'onHold', 0)
      WHERE (ck, owner_ck, status, alert_level, mode, type, has_flag, is_archived, bin_seconds, bin_degree_hours, bin_mkt) IN (SELECT * FROM (SELECT p.ck AS ck, p.owner_ck AS owner_ck, p.status AS status, p.alert_level AS alert_level, p.mode AS mode, p.type AS type, p.has_flag AS has_flag, p.is_archived AS is_archived, CASE WHEN p.calc_violation_duration_all = 0 THEN 0
    WHEN p.calc_violation_duration_all > 0 AND p.calc_violation_duration_all <= 3600 THEN 1
    WHEN p.calc_violation_duration_all > 3600 AND p.calc_violation_duration_all <= 21600 THEN 2
    WHEN p.calc_violation_duration_all > 21600 AND p.calc_violation_duration_all <= 86400 THEN 3
    WHEN p.calc_violation_duration_all > 86400 THEN 4 ELSE -1 END AS bin_seconds, CASE WHEN p.calc_degree_hour <= 0 THEN 0
    WHEN p.calc_degree_hour > 0 AND p.calc_degree_hour <= 1 THEN 1
    WHEN p.calc_degree_hour > 1 AND p.calc_degree_hour <= 10 THEN 2
    WHEN p.calc_degree_hour > 10 AND p.calc_degree_hour <= 100 THEN 3
    WHEN p.calc_degree_hour > 100 THEN 4 ELSE -1 END AS bin_degree_hours, CASE WHEN p.calc_mean_kinetic_temperature < 2 THEN 0
    WHEN p.calc_mean_kinetic_temperature >= 2 AND p.calc_mean_kinetic_temperature < 8 THEN 1
    WHEN p.calc_mean_kinetic_temperature >= 8 AND p.calc_mean_kinetic_temperature < 15 THEN 2
    WHEN p.calc_mean_kinetic_temperature >= 15 AND p.calc_mean_kinetic_temperature < 25 THEN 3
    WHEN p.calc_mean_kinetic_temperature >= 25 THEN 4 ELSE -1 END AS bin_mkt FROM (SELECT * FROM report_listing l WHERE l.ck = (SELECT k.ck FROM company_keys k WHERE k.company_id = new.company_id)
        AND l.rk = (SELECT r.rk FROM report_keys r WHERE r.report_id = new.label_report_id)) p));
END;
`;
