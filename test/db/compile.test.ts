import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Db } from '../../db/database';
import { hasTable, insertRow } from './sql-rows';
import { toApiError } from '../../http/errors';
import { InvalidInputError } from '../../model/errors';
import { COMPANY_ID, compileListQuery, compileOrder, PAGE_LAST, toGlob, toLikePattern, WHERE_PARAMS } from '../../db/query/compile';
import { parseListQuery } from '../../query/list-query';
import { registerSqlFunctions } from '../../db/query/sql-functions';
import { ReportStore } from '../../db/report-store';

// ---------------------------------------------------------------------------------------------
// Fixture: five reports with every NOT NULL column filled and realistic stored figures.
// ---------------------------------------------------------------------------------------------

interface Figures {
  read: number;
  violations: number;
  minT: number | null;
  maxT: number | null;
  average: number | null;
}

function calculated(f: Figures, configTime: number, interval: number) {
  return {
    numberOfDatapointsAvailable: f.read,
    numberOfDatapointsRead: f.read,
    numberOfMeasurementsOccurred: f.read,
    attainedValues: { minTemperature: f.minT, maxTemperature: f.maxT },
    startTime: configTime,
    elapsedTime: f.read * interval,
    elapsedTimeFromConfig: f.read * interval,
    preciseElapsedTime: Math.max(0, (f.read - 1) * interval),
    preciseElapsedTimeFromConfig: Math.max(0, (f.read - 1) * interval),
    preciseInterval: interval,
    currentTime: configTime + f.read * interval,
    startDelay: 0,
    numberOfViolations: { temperature: f.violations, humidity: 0, all: f.violations },
    durationOfViolations: { temperature: f.violations * interval, humidity: 0, all: f.violations * interval },
    analysedValues: {
      temperature: { average: f.average, degreeHour: f.violations * 0.25, meanKineticTemperature: f.average === null ? null : f.average + 0.3 },
    },
  };
}

interface Row {
  id: string;
  created: string;
  updated: string;
  owner: string;
  sub: { id: string; name?: string } | null;
  uid: string;
  name: string;
  mode: string;
  type: string;
  status: string;
  ref: string;
  interval: number;
  minT: number;
  maxT: number;
  minH: number | null;
  maxH: number | null;
  taps: number;
  incomplete: 0 | 1;
  figures: Figures;
  alert: [number, number];
}

const CONFIG_TIME = 1767225600; // 2026-01-01T00:00:00Z

const ROWS: Row[] = [
  {
    id: 'r01', created: '2026-01-01T00:00:00.000Z', updated: '2026-01-05T00:00:00.000Z', owner: 'c1', sub: null,
    uid: 'UID-001', name: 'ÉCLAIR', mode: 'airFreight', type: 'tempSense', status: 'active', ref: 'PO-100',
    interval: 60, minT: 2, maxT: 8, minH: null, maxH: null, taps: 3, incomplete: 0,
    figures: { read: 10, violations: 2, minT: -1.5, maxT: 9, average: 4.2 }, alert: [2, CONFIG_TIME + 300],
  },
  {
    id: 'r02', created: '2026-01-02T00:00:00.000Z', updated: '2026-01-02T00:00:00.000Z', owner: 'c2', sub: { id: 'sub-1', name: 'North' },
    uid: 'UID-002', name: 'éclair', mode: 'roadTransport', type: 'humiditySense', status: 'completed', ref: 'po-100,a',
    interval: 300, minT: -20, maxT: -10, minH: 20, maxH: 80, taps: 0, incomplete: 1,
    figures: { read: 0, violations: 0, minT: null, maxT: null, average: null }, alert: [-1, 0],
  },
  {
    id: 'r03', created: '2026-01-02T00:00:00.000Z', updated: '2026-02-01T10:00:00.123Z', owner: 'c2', sub: { id: 'sub-2' },
    uid: 'UID-003', name: 'Eclair', mode: 'seaFreight', type: 'tempSense', status: 'active', ref: '50%_off*',
    interval: 60, minT: 2, maxT: 8, minH: 30, maxH: null, taps: 10, incomplete: 0,
    figures: { read: 100, violations: 5, minT: 1.5, maxT: 12.25, average: 6.5 }, alert: [1, CONFIG_TIME + 600],
  },
  {
    id: 'r04', created: '2026-03-01T12:00:00.000Z', updated: '2026-03-01T12:00:00.000Z', owner: 'c1', sub: null,
    uid: 'a?b[c]*', name: 'plain', mode: 'stationary', type: 'freezeSense', status: 'completed', ref: 'back\\slash',
    interval: 900, minT: -30, maxT: 0, minH: null, maxH: null, taps: 3, incomplete: 0,
    figures: { read: 5, violations: 0, minT: 3, maxT: 4, average: 3.5 }, alert: [0, 0],
  },
  {
    id: 'r05', created: '2025-12-31T23:59:59.999Z', updated: '2026-01-01T00:00:00.000Z', owner: 'c3', sub: { id: 'sub-1' },
    uid: 'UID-005', name: 'Straße', mode: 'unknown', type: 'shockSense', status: 'active', ref: "x' OR 1=1 --",
    interval: 60, minT: 2, maxT: 8, minH: 10, maxH: 90, taps: 1, incomplete: 0,
    figures: { read: 1, violations: 1, minT: -30, maxT: -30, average: -30 }, alert: [2, CONFIG_TIME],
  },
  // Zeta's alone, so the caller c1 does not see it: searches run as c3 find it.
  {
    id: 'r06', created: '2026-04-01T00:00:00.000Z', updated: '2026-04-01T00:00:00.000Z', owner: 'c3', sub: null,
    uid: 'UID-006', name: 'quoted', mode: 'unknown', type: 'tempSense', status: 'active', ref: 'say "cheese" now',
    interval: 60, minT: 2, maxT: 8, minH: null, maxH: null, taps: 0, incomplete: 0,
    figures: { read: 1, violations: 0, minT: 4, maxT: 4, average: 4 }, alert: [0, 0],
  },
];

const COMPANIES = [
  ['c1', 'Acme Cold Chain', 'ACM'],
  ['c2', 'Békés Frigo', 'BEK'],
  ['c3', 'Zeta', 'ZET'],
];

/** [report, company, role] */
const ACCESS: [string, string, string][] = [
  ['r01', 'c1', 'owner'], ['r01', 'c2', 'viewer'],
  ['r02', 'c2', 'owner'], ['r02', 'c1', 'editor'],
  ['r03', 'c2', 'owner'], ['r03', 'c1', 'viewer'],
  ['r04', 'c1', 'owner'],
  ['r05', 'c3', 'owner'], ['r05', 'c1', 'viewer'],
  ['r06', 'c3', 'owner'],
];

/** [company, report, hasFlag, isArchived]: the caller is c1; c2's flag on r03 must not show. */
const STATE: [string, string, number, number][] = [
  ['c1', 'r01', 1, 0],
  ['c1', 'r02', 0, 1],
  ['c1', 'r03', 0, 0],
  ['c2', 'r03', 1, 1],
];

/** [report, customFieldId, JSON value] */
const CUSTOM: [string, string, unknown][] = [
  ['r01', 'po', 'A-1'],
  ['r02', 'po', 10],
  ['r03', 'po', ['x', '10', 3]],
  ['r04', 'po', '9'],
  ['r04', 'tags', ['cold', 'fragile']],
  ['r03', 'temp', 2.5],
];

const CALLER = 'c1';
let dir: string;
let db: Db;
let store: ReportStore;

function insertFixture(target: Db): void {
  target.transaction(() => {
    for (const [id, name, shortCode] of COMPANIES) insertRow(target, 'companies', { id, name, short_code: shortCode });
    for (const r of ROWS) {
      const calc = calculated(r.figures, CONFIG_TIME, r.interval);
      const minimal = {
        flattenedDatapoints: Array.from({ length: Math.min(r.figures.read, 50) }, (_, i) => (i < r.figures.violations ? 1 : 0)),
        numberOfDatapointsAvailable: r.figures.read,
        numberOfDatapointsRead: r.figures.read,
        numberOfMeasurementsOccurred: r.figures.read,
        numberOfViolations: calc.numberOfViolations,
      };
      insertRow(target, 'label_reports', {
        id: r.id, created: r.created, updated: r.updated, owner_company_id: r.owner,
        sub_company: r.sub === null ? null : JSON.stringify(r.sub), user_info: JSON.stringify({ id: 'u1', name: 'Dispatcher' }),
        label_preset: null, label_uid: r.uid, label_sequence_code: `SEQ-${r.id}`, label_type: 'TL-1', label_name: r.name,
        firmware_version: '1.2.0', firmware_api_version: '3', battery_life_days: 365, mode: r.mode, type: r.type,
        status: r.status, label_reference: r.ref, interval: r.interval, config_time: CONFIG_TIME, start_delay: 0,
        running_time: 86400, min_temperature: r.minT, max_temperature: r.maxT, min_humidity: r.minH, max_humidity: r.maxH,
        alerts_config: null, number_of_taps: r.taps, data_is_incomplete: r.incomplete, datapoints: Buffer.alloc(0),
        calculated: JSON.stringify(calc), trimmed: null, minimal: JSON.stringify(minimal),
        alert_level: r.alert[0], alert_timestamp: r.alert[1],
      });
      if (hasTable(target, 'report_datapoints')) {
        insertRow(target, 'report_datapoints', { label_report_id: r.id, datapoints: Buffer.alloc(0) });
      }
    }
    ACCESS.forEach(([reportId, companyId, role], i) =>
      insertRow(target, 'access', { id: `a${i}`, label_report_id: reportId, company_id: companyId, role }),
    );
    for (const [companyId, reportId, hasFlag, isArchived] of STATE) {
      insertRow(target, 'company_report_state', { company_id: companyId, label_report_id: reportId, has_flag: hasFlag, is_archived: isArchived });
    }
    for (const [reportId, fieldId, value] of CUSTOM) {
      insertRow(target, 'custom_field_values', { label_report_id: reportId, custom_field_id: fieldId, value: JSON.stringify(value) });
    }
  })();
}

beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'labeldesk-query-'));
  db = openDatabase(path.join(dir, 'test.sqlite'));
  registerSqlFunctions(db);
  store = new ReportStore(db);
  insertFixture(db);
});

afterAll(() => {
  db?.close();
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

/** The ids the list query answers to a company, in order, and its count: the store's own SQL. */
function run(query: Record<string, string>, caller = CALLER): string[] {
  const compiled = compileListQuery(parseListQuery(query));
  const page = store.pageIds(caller, compiled, 1000, 0);
  expect(store.count(caller, compiled)).toBe(page.length);
  return page;
}

const ids = (filter: string, extra: Record<string, string> = {}) => run({ filter, ...extra });
const custom = (customFields: string) => run({ customFields });
const ordered = (order: string) => run({ order });

const ALL_BY_CREATED = ['r05', 'r01', 'r02', 'r03', 'r04'];

describe('compileListQuery on a real SQLite database', () => {
  it('answers everything by created ascending, ties by id, without a filter', () => {
    expect(compileListQuery(parseListQuery({}))).toEqual({ where: '1', params: [], orderBy: 'l.created ASC, l.id ASC', counted: '1' });
    expect(ids('')).toEqual(ALL_BY_CREATED);
  });

  describe('strings', () => {
    it('eq / neq (case-sensitive, escaped comma)', () => {
      expect(ids('labelReference[eq]PO-100')).toEqual(['r01']);
      expect(ids('labelReference[eq]po-100')).toEqual([]);
      expect(ids('labelReference[eq]po-100\\,a')).toEqual(['r02']);
      expect(ids('labelReference[neq]PO-100')).toEqual(['r05', 'r02', 'r03', 'r04']);
      expect(ids('labelReference[eq]back\\slash')).toEqual(['r04']);
      expect(ids('id[eq]r03')).toEqual(['r03']);
    });

    it('gt / gte / lt / lte by code point', () => {
      // 'Eclair' < 'Straße' < 'plain' < 'ÉCLAIR' (U+00C9) < 'éclair' (U+00E9)
      expect(ids('label.name[gt]a')).toEqual(['r01', 'r02', 'r04']);
      expect(ids('label.name[lt]F')).toEqual(['r03']);
      expect(ids('label.name[gte]ÉCLAIR')).toEqual(['r01', 'r02']);
      expect(ids('label.name[lte]plain')).toEqual(['r05', 'r03', 'r04']);
      expect(ids('label.name[gt]plain,label.name[lt]éclair')).toEqual(['r01']);
    });

    it('neq on a nullable column also matches NULL', () => {
      expect(ids('subCompany.id[eq]sub-1')).toEqual(['r05', 'r02']);
      expect(ids('subCompany.id[neq]sub-1')).toEqual(['r01', 'r03', 'r04']);
      expect(ids('subCompany.id[gte]sub')).toEqual(['r05', 'r02', 'r03']);
    });

    it('like: case-sensitive, % * _ wildcards and escapes', () => {
      expect(ids('labelReference[like]PO%')).toEqual(['r01']);
      expect(ids('labelReference[like]PO*')).toEqual(['r01']);
      expect(ids('labelReference[like]_O-100')).toEqual(['r01']);
      expect(ids('labelReference[like]PO-10')).toEqual([]);
      expect(ids('labelReference[like]50%')).toEqual(['r03']);
      expect(ids('labelReference[like]50\\%\\_off\\*')).toEqual(['r03']);
      expect(ids('labelReference[like]%\\_%')).toEqual(['r03']);
      expect(ids('labelReference[like]%\\\\%')).toEqual(['r04']);
      expect(ids('labelReference[like]back\\slash')).toEqual(['r04']); // lone backslash is literal
      expect(ids('labelReference[like]%\\,%')).toEqual(['r02']);
      // GLOB's own special characters in data and pattern are literals
      expect(ids('label.uid[like]a?b[c]%')).toEqual(['r04']);
      expect(ids('label.uid[like]a?b[c]\\*')).toEqual(['r04']);
      expect(ids('label.uid[like]a_b%')).toEqual(['r04']);
      expect(ids('label.uid[like]aXb%')).toEqual([]);
      expect(ids('labelReference[like]PO?100')).toEqual([]); // ? is a literal, not GLOB's one character
      expect(ids('labelReference[like]PO[-]100')).toEqual([]); // [ is a literal, not a GLOB class
      expect(ids('label.uid[like]a?b[c]\\*x')).toEqual([]);
      expect(ids('label.uid[like]a?b[[]c]*')).toEqual([]);
      // _ is one character, also a non-ASCII one
      expect(ids('label.name[like]Stra_e')).toEqual(['r05']);
      expect(ids('label.name[like]_CLAIR')).toEqual(['r01']);
    });

    it('ilike: ASCII case-insensitive, and Unicode case-insensitive with a non-ASCII pattern', () => {
      expect(ids('labelReference[ilike]po-100%')).toEqual(['r01', 'r02']);
      expect(ids('labelReference[ilike]PO-100\\,A')).toEqual(['r02']);
      expect(ids('label.name[ilike]eclair')).toEqual(['r03']);
      expect(ids('label.name[ilike]_clair')).toEqual(['r01', 'r02', 'r03']);
      expect(ids('label.name[ilike]ÉCLAIR')).toEqual(['r01', 'r02']);
      expect(ids('label.name[ilike]éclair')).toEqual(['r01', 'r02']);
      expect(ids('label.name[ilike]éCl%')).toEqual(['r01', 'r02']);
      expect(ids('label.name[ilike]STRAßE')).toEqual(['r05']);
      expect(ids('label.name[ilike]straß_')).toEqual(['r05']);
      expect(ids('labelReference[ilike]50\\%\\_OFF\\*')).toEqual(['r03']);
      expect(ids('labelReference[ilike]%é\\_%')).toEqual([]);
      expect(ids('label.uid[ilike]A?B[C]%')).toEqual(['r04']);
      expect(ids('labelReference[ilike]BACK\\\\SLASH')).toEqual(['r04']);
      expect(ids('labelReference[ilike]BACK\\SLASH')).toEqual(['r04']); // lone backslash is literal
      expect(ids('labelReference[ilike]%\\\\%')).toEqual(['r04']);
      expect(ids('label.name[ilike]%\\\\%')).toEqual([]);
      expect(ids('labelReference[ilike]%\\%')).toEqual([]); // ends with a literal %
      expect(ids('labelReference[ilike]50\\%%')).toEqual(['r03']);
    });

    it('includes: substring, wildcards are plain text', () => {
      expect(ids('labelReference[includes]100')).toEqual(['r01', 'r02']);
      expect(ids('labelReference[includes]\\,')).toEqual(['r02']);
      expect(ids('labelReference[includes]%')).toEqual(['r03']);
      expect(ids('labelReference[includes]o')).toEqual(['r02', 'r03']);
      expect(ids('label.name[includes]CLAIR')).toEqual(['r01']);
      expect(ids('labelReference[includes]')).toEqual(ALL_BY_CREATED);
      expect(ids('subCompany.id[includes]sub')).toEqual(['r05', 'r02', 'r03']);
    });

    it('enum keys and the owner company', () => {
      expect(ids('mode[eq]airFreight')).toEqual(['r01']);
      expect(ids('status[neq]active')).toEqual(['r02', 'r04']);
      expect(ids('mode[gt]r')).toEqual(['r05', 'r02', 'r03', 'r04']);
      expect(ids('type[like]%Sense')).toEqual(ALL_BY_CREATED);
      expect(ids('company.name[eq]Acme Cold Chain')).toEqual(['r01', 'r04']);
      expect(ids('company.shortCode[neq]BEK')).toEqual(['r05', 'r01', 'r04']);
      expect(ids('company.id[eq]c2')).toEqual(['r02', 'r03']);
      expect(ids('company.name[ilike]békés%')).toEqual(['r02', 'r03']);
      expect(ids('label.sequenceCode[eq]SEQ-r04,label.firmwareVersionInfo.firmwareVersion[eq]1.2.0')).toEqual(['r04']);
    });
  });

  describe('numbers', () => {
    it('each comparison on an integer column', () => {
      expect(ids('numberOfTaps[eq]3')).toEqual(['r01', 'r04']);
      expect(ids('numberOfTaps[eq]3.0')).toEqual(['r01', 'r04']);
      expect(ids('numberOfTaps[eq]3.5')).toEqual([]);
      expect(ids('numberOfTaps[neq]3')).toEqual(['r05', 'r02', 'r03']);
      expect(ids('numberOfTaps[gt]3')).toEqual(['r03']);
      expect(ids('numberOfTaps[gte]3')).toEqual(['r01', 'r03', 'r04']);
      expect(ids('numberOfTaps[lt]1')).toEqual(['r02']);
      expect(ids('numberOfTaps[lte]1e0')).toEqual(['r05', 'r02']);
      expect(ids('numberOfTaps[gt]2.5,numberOfTaps[lt]3.5')).toEqual(['r01', 'r04']);
      expect(ids('alert.level[eq]-1')).toEqual(['r02']);
      expect(ids('senseConfig.interval[gte]300')).toEqual(['r02', 'r04']);
    });

    it('real and nullable columns', () => {
      expect(ids('senseConfig.limits.minTemperature[lt]-19.5')).toEqual(['r02', 'r04']);
      expect(ids('senseConfig.limits.minHumidity[gt]15')).toEqual(['r02', 'r03']);
      expect(ids('senseConfig.limits.minHumidity[neq]20')).toEqual(['r05', 'r01', 'r03', 'r04']);
      expect(ids('senseConfig.limits.maxHumidity[lte]100')).toEqual(['r05', 'r02']);
    });

    it('stored calculated figures (json_extract), NULL figures included', () => {
      expect(ids('calculatedSenseData.numberOfViolations.all[gte]2')).toEqual(['r01', 'r03']);
      expect(ids('calculatedSenseData.durationOfViolations.all[eq]300')).toEqual(['r03']);
      expect(ids('calculatedSenseData.numberOfDatapointsRead[eq]0')).toEqual(['r02']);
      expect(ids('calculatedSenseData.attainedValues.minTemperature[lt]0')).toEqual(['r05', 'r01']);
      expect(ids('calculatedSenseData.attainedValues.minTemperature[neq]-1.5')).toEqual(['r05', 'r02', 'r03', 'r04']);
      expect(ids('calculatedSenseData.analysedValues.temperature.average[eq]6.5')).toEqual(['r03']);
      expect(ids('calculatedSenseData.analysedValues.temperature.meanKineticTemperature[gt]4')).toEqual(['r01', 'r03']);
      expect(ids('calculatedSenseData.startTime[eq]1767225600')).toEqual(ALL_BY_CREATED);
    });
  });

  describe('booleans', () => {
    it("hasFlag and isArchived are the caller's, false without a state row", () => {
      expect(ids('hasFlag[eq]true')).toEqual(['r01']);
      expect(ids('hasFlag[eq]false')).toEqual(['r05', 'r02', 'r03', 'r04']);
      expect(ids('hasFlag[neq]true')).toEqual(['r05', 'r02', 'r03', 'r04']);
      expect(ids('isArchived[eq]true')).toEqual(['r02']);
      expect(ids('isArchived[neq]false')).toEqual(['r02']);
      expect(ids('dataIsIncomplete[eq]true')).toEqual(['r02']);
      expect(ids('dataIsIncomplete[neq]true')).toEqual(['r05', 'r01', 'r03', 'r04']);
    });
  });

  describe('instants', () => {
    it('compare as instants whatever the zone of the value', () => {
      expect(ids('created[eq]2026-01-02T00:00:00Z')).toEqual(['r02', 'r03']);
      expect(ids('created[eq]2026-01-02T01:00:00+01:00')).toEqual(['r02', 'r03']);
      expect(ids('created[eq]2026-01-01T19:00-0500')).toEqual(['r02', 'r03']);
      expect(ids('created[neq]2026-01-02T00:00:00.000Z')).toEqual(['r05', 'r01', 'r04']);
      expect(ids('created[gt]2026-01-01')).toEqual(['r02', 'r03', 'r04']);
      expect(ids('created[gte]2026-01-01')).toEqual(['r01', 'r02', 'r03', 'r04']);
      expect(ids('created[lt]2026-01-01T00:00:00.000Z')).toEqual(['r05']);
      expect(ids('created[lte]2026-01-01T01:00:00+01:00')).toEqual(['r05', 'r01']);
      expect(ids('updated[lt]2026-02-01T10:00:00.124Z')).toEqual(['r05', 'r01', 'r02', 'r03']);
      expect(ids('updated[gt]2026-02-01T11:00:00.123+01:00')).toEqual(['r04']);
      expect(ids('updated[gte]2026-02-01T11:00:00.123+01:00')).toEqual(['r03', 'r04']);
    });

    it('honour a fraction finer than a millisecond exactly', () => {
      // r05 was created at 23:59:59.999, just before .9995
      expect(ids('created[gte]2025-12-31T23:59:59.9995Z')).toEqual(['r01', 'r02', 'r03', 'r04']);
      expect(ids('created[gt]2025-12-31T23:59:59.9995Z')).toEqual(['r01', 'r02', 'r03', 'r04']);
      expect(ids('created[lte]2025-12-31T23:59:59.9995Z')).toEqual(['r05']);
      expect(ids('created[lt]2025-12-31T23:59:59.9995Z')).toEqual(['r05']);
      expect(ids('created[eq]2025-12-31T23:59:59.9995Z')).toEqual([]);
      expect(ids('created[neq]2025-12-31T23:59:59.9995Z')).toEqual(ALL_BY_CREATED);
      expect(ids('created[eq]2025-12-31T23:59:59.999000Z')).toEqual(['r05']);
    });
  });

  describe('array keys access.*', () => {
    it('hold when any element satisfies the condition; neq when none equals', () => {
      expect(ids('access.companyId[eq]c2')).toEqual(['r01', 'r02', 'r03']);
      expect(ids('access.companyId[includes]c2')).toEqual(['r01', 'r02', 'r03']);
      expect(ids('access.companyId[includes]c')).toEqual([]); // membership, not substring
      expect(ids('access.companyId[neq]c2')).toEqual(['r05', 'r04']);
      expect(ids('access.companyId[eq]c3')).toEqual(['r05']);
      expect(ids('access.companyId[gt]c2')).toEqual(['r05']);
      expect(ids('access.companyId[lte]c1')).toEqual(ALL_BY_CREATED);
      expect(ids('access.companyId[like]c%')).toEqual(ALL_BY_CREATED);
      expect(ids('access.companyId[ilike]C3')).toEqual(['r05']);
      expect(ids('access.role[eq]editor')).toEqual(['r02']);
      expect(ids('access.role[neq]viewer')).toEqual(['r02', 'r04']);
      expect(ids('access.role[includes]viewer')).toEqual(['r05', 'r01', 'r03']);
      expect(ids('access.role[like]%er')).toEqual(['r05', 'r01', 'r02', 'r03', 'r04']);
      expect(ids('access.role[like]ed%')).toEqual(['r02']);
      // two conditions on the same array key may be met by different elements
      expect(ids('access.role[eq]owner,access.role[eq]viewer')).toEqual(['r05', 'r01', 'r03']);
    });
  });

  describe('customFields', () => {
    it('string, number and array values, one element at a time', () => {
      expect(custom('po[eq]A-1')).toEqual(['r01']);
      expect(custom('po[eq]10')).toEqual(['r02', 'r03']); // number 10, and the string "10" of r03
      expect(custom('po[eq]10.0')).toEqual(['r02']); // numeric for the number; "10" ≠ "10.0" as text
      expect(custom('po[eq]3')).toEqual(['r03']); // array element 3
      expect(custom('po[eq]x')).toEqual(['r03']);
      expect(custom('po[lt]5')).toEqual(['r03']); // 3 < 5 (and the text "10" < "5"); "9", "A-1" are not
      expect(custom('po[gt]9.5')).toEqual(['r01', 'r02', 'r03']); // 10 > 9.5; text "A-1" and "x" > "9.5"; "9" is not
      expect(custom('po[gte]9')).toEqual(['r01', 'r02', 'r03', 'r04']); // "A-1" ≥ "9" and "x" ≥ "9" as text
      expect(custom('po[lte]10')).toEqual(['r02', 'r03']);
      expect(custom('temp[gt]2.4,temp[lt]2.6')).toEqual(['r03']);
      expect(custom('temp[eq]2.5')).toEqual(['r03']);
    });

    it('a report without the field matches only neq', () => {
      expect(custom('po[neq]10')).toEqual(['r05', 'r01', 'r04']);
      expect(custom('po[neq]x')).toEqual(['r05', 'r01', 'r02', 'r04']);
      expect(custom('tags[neq]cold')).toEqual(['r05', 'r01', 'r02', 'r03']);
      expect(custom('nope[eq]x')).toEqual([]);
      expect(custom('nope[neq]x')).toEqual(ALL_BY_CREATED);
      expect(custom('nope[like]%')).toEqual([]);
      expect(custom('nope[includes]')).toEqual([]);
    });

    it('like, ilike and includes on string elements', () => {
      expect(custom('po[like]A%')).toEqual(['r01']);
      expect(custom('po[like]a%')).toEqual([]);
      expect(custom('po[ilike]a-_')).toEqual(['r01']);
      expect(custom('po[like]1%')).toEqual(['r03']); // the string "10", not the number 10
      expect(custom('po[includes]1')).toEqual(['r01', 'r03']); // substring of "A-1" and "10"
      expect(custom('po[includes]3')).toEqual(['r03']); // number element equal to 3
      expect(custom('tags[includes]fragile')).toEqual(['r04']);
      expect(custom('tags[includes]col')).toEqual(['r04']);
      expect(custom('tags[eq]cold')).toEqual(['r04']);
      expect(custom('tags[eq]col')).toEqual([]);
    });

    it('combine with filter conditions (all ANDed)', () => {
      expect(run({ filter: 'status[eq]active', customFields: 'po[neq]A-1' })).toEqual(['r05', 'r03']);
      expect(run({ filter: 'numberOfTaps[gte]3', customFields: 'po[includes]1,po[neq]x' })).toEqual(['r01']);
    });
  });

  describe('order', () => {
    it('sorts by the key, ties by id ascending in both directions', () => {
      expect(ordered('numberOfTaps[asc]')).toEqual(['r02', 'r05', 'r01', 'r04', 'r03']);
      expect(ordered('numberOfTaps[desc]')).toEqual(['r03', 'r01', 'r04', 'r05', 'r02']);
      expect(ordered('created[ASC]')).toEqual(['r04', 'r02', 'r03', 'r01', 'r05']);
      expect(ordered('created[asc]')).toEqual(ALL_BY_CREATED);
      expect(ordered('hasFlag[desc]')).toEqual(['r01', 'r02', 'r03', 'r04', 'r05']);
      expect(ordered('isArchived[asc]')).toEqual(['r01', 'r03', 'r04', 'r05', 'r02']);
      expect(ordered('id[desc]')).toEqual(['r05', 'r04', 'r03', 'r02', 'r01']);
      expect(ordered('id[asc]')).toEqual(['r01', 'r02', 'r03', 'r04', 'r05']);
      expect(ordered('label.name[asc]')).toEqual(['r03', 'r05', 'r04', 'r01', 'r02']);
      expect(ordered('company.name[asc]')).toEqual(['r01', 'r04', 'r02', 'r03', 'r05']);
    });

    it('puts NULLs first ascending and last descending', () => {
      expect(ordered('senseConfig.limits.minHumidity[asc]')).toEqual(['r01', 'r04', 'r05', 'r02', 'r03']);
      expect(ordered('senseConfig.limits.minHumidity[desc]')).toEqual(['r03', 'r02', 'r05', 'r01', 'r04']);
      expect(ordered('subCompany.id[xyz]')).toEqual(['r03', 'r02', 'r05', 'r01', 'r04']);
      expect(ordered('subCompany.id[asc]')).toEqual(['r01', 'r04', 'r02', 'r05', 'r03']);
      expect(ordered('calculatedSenseData.attainedValues.minTemperature[asc]')).toEqual(['r02', 'r05', 'r01', 'r03', 'r04']);
      expect(ordered('calculatedSenseData.attainedValues.minTemperature[desc]')).toEqual(['r04', 'r03', 'r01', 'r05', 'r02']);
    });

    it('compiles to a constant expression', () => {
      expect(compileListQuery(parseListQuery({ order: 'numberOfTaps[asc]' })).orderBy).toBe('l.number_of_taps ASC, l.id ASC');
      expect(compileListQuery(parseListQuery({ order: 'calculatedSenseData.startTime[desc]' })).orderBy).toBe('l.calc_start_time DESC, l.id ASC');
      // Descending by a key of long runs: ranges of constant text, bound when the page is read
      // to the company, the page's where and its parameters, and the page's end.
      const desc = compileListQuery(parseListQuery({ filter: 'numberOfTaps[gt]1', order: 'numberOfTaps[desc]' }));
      expect(desc.orderBy).toBe('sort_key DESC, id ASC');
      expect(desc.ranges?.sortKey).toBe('l.number_of_taps');
      expect(desc.ranges?.conditions.map((c) => c.params)).toEqual([
        [COMPANY_ID, WHERE_PARAMS, PAGE_LAST],
        [COMPANY_ID, WHERE_PARAMS, PAGE_LAST],
      ]);
      // A column that may hold NULL: its NULLs come last, a range of their own.
      expect(compileListQuery(parseListQuery({ order: 'senseConfig.limits.minHumidity[desc]' })).ranges?.conditions.at(-1)).toEqual({ where: 'l.min_humidity IS NULL', params: [] });
      expect(compileListQuery(parseListQuery({ order: 'id[asc]' })).orderBy).toBe('l.id ASC');
    });

    it('with a comparison on a rare-value key, keeps the order from an index so the matches are sorted', () => {
      const orderBy = (query: Record<string, string>) => compileListQuery(parseListQuery(query)).orderBy;
      expect(orderBy({ filter: 'labelReference[eq]PO-1', order: 'created[desc]' })).toBe('+l.created DESC, l.id ASC');
      expect(orderBy({ filter: 'calculatedSenseData.numberOfDatapointsRead[gte]1000', order: 'id[desc]' })).toBe('+l.id DESC');
      // neq and patterns match most reports, or go through the text index: the order stays indexed.
      expect(orderBy({ filter: 'labelReference[neq]PO-1', order: 'created[desc]' })).toBe('l.created DESC, l.id ASC');
      expect(orderBy({ filter: 'labelReference[like]PO-1%', order: 'created[desc]' })).toBe('l.created DESC, l.id ASC');
      expect(orderBy({ filter: 'status[eq]active', order: 'created[desc]' })).toBe('l.created DESC, l.id ASC');
    });
    it('by a key of few values: one range per value and per gap between them, merged by the value then the id', () => {
      const q = compileListQuery(parseListQuery({ filter: 'isArchived[eq]false', order: 'hasFlag[desc]' }));
      expect(q.orderBy).toBe('sort_key DESC, id ASC');
      expect(q.ranges?.sortKey).toBe('l.has_flag');
      expect(q.ranges?.conditions).toEqual([
        { where: 'l.has_flag IS NULL', params: [] },
        { where: 'l.has_flag < ?', params: [0] },
        { where: 'l.has_flag = ?', params: [0] },
        { where: 'l.has_flag > ? AND l.has_flag < ?', params: [0, 1] },
        { where: 'l.has_flag = ?', params: [1] },
        { where: 'l.has_flag > ?', params: [1] },
      ]);
      expect(compileListQuery(parseListQuery({ order: 'status[asc]' })).ranges?.conditions.filter((c) => c.where.includes('=')).map((c) => c.params)).toEqual([
        ['active'],
        ['completed'],
      ]);
    });

    it('by a key of few values with a search or a custom field condition: its few matches sorted, not one search per range', () => {
      for (const query of [
        { filter: 'labelReference[ilike]%po-12%', order: 'status[asc]' },
        { customFields: 'batch[eq]B-1', order: 'status[asc]' },
        { filter: 'labelReference[eq]PO-1', order: 'mode[asc]' },
      ]) {
        const q = compileListQuery(parseListQuery(query));
        expect(q.ranges, JSON.stringify(query)).toBeUndefined();
        expect(q.orderBy).toMatch(/^\+?l\.(status|mode) ASC, l\.id ASC$/);
      }
    });
  });

  describe('SQL injection', () => {
    const attempts = [
      "x' OR 1=1 --",
      "x') OR ('1'='1",
      "'; DROP TABLE label_reports; --",
      '" OR ""="',
      '1) OR (1=1',
      '%\' OR 1=1 --',
    ];

    it('treats values as data: exact match or nothing', () => {
      expect(ids("labelReference[eq]x' OR 1=1 --")).toEqual(['r05']);
      expect(ids("labelReference[like]x' OR 1=1 -%")).toEqual(['r05']);
      for (const value of attempts) {
        const escaped = value.replace(/,/g, '\\,');
        for (const filter of [`labelReference[eq]${escaped}`, `id[eq]${escaped}`, `access.companyId[eq]${escaped}`, `label.name[ilike]${escaped}`]) {
          const compiled = compileListQuery(parseListQuery({ filter }));
          expect(compiled.where).not.toContain(value);
          expect(ids(filter)).toEqual(value === "x' OR 1=1 --" && filter.startsWith('labelReference') ? ['r05'] : []);
        }
        expect(custom(`po[eq]${escaped}`)).toEqual([]);
        expect(custom(`po[neq]${escaped}`)).toEqual(ALL_BY_CREATED);
      }
      expect(db.prepare('SELECT count(*) FROM label_reports').pluck().get()).toBe(ROWS.length);
    });

    it('refuses injected keys, operators, field ids and orders with 400', () => {
      const bad: Record<string, string>[] = [
        { filter: 'id) OR (1[eq]1' },
        { filter: "id' OR '1'='1[eq]1" },
        { filter: 'id[eq) OR (1=1]x' },
        { filter: 'json_extract(r.calculated, \'$.x\')[eq]1' },
        { customFields: "po') OR 1=1 --[eq]1" },
        { customFields: 'po[eq]1,x y[eq]2' },
        { order: 'created; DROP TABLE label_reports[asc]' },
        { order: 'r.created[asc]' },
        { order: '(SELECT 1)[asc]' },
      ];
      for (const query of bad) {
        let err: unknown;
        try {
          parseListQuery(query);
        } catch (e) {
          err = e;
        }
        expect(err, JSON.stringify(query)).toBeInstanceOf(InvalidInputError);
        expect(toApiError(err).statusCode).toBe(400);
      }
    });
  });
});

describe('the owner company, quotes in a search, and keys off the allow-list', () => {
  it('compares the owner company id with every operator, not only eq and neq', () => {
    expect(ids('company.id[gt]c1')).toEqual(['r05', 'r02', 'r03']);
    expect(ids('company.id[gte]c2')).toEqual(['r05', 'r02', 'r03']);
    expect(ids('company.id[lt]c2')).toEqual(['r01', 'r04']);
    expect(ids('company.id[lte]c2')).toEqual(['r01', 'r02', 'r03', 'r04']);
    expect(ids('company.id[like]c_')).toEqual(ALL_BY_CREATED);
    expect(ids('company.id[like]C_')).toEqual([]);
    expect(ids('company.id[ilike]C3')).toEqual(['r05']);
    expect(ids('company.id[includes]2')).toEqual(['r02', 'r03']);
    expect(ids('company.id[neq]c2')).toEqual(['r05', 'r01', 'r04']);
    expect(ids('company.id[eq]c9')).toEqual([]);
    expect(ids('company.id[neq]c9')).toEqual(ALL_BY_CREATED);
  });

  it('finds a double quote inside a searched literal, through the trigram index', () => {
    expect(run({ filter: 'labelReference[includes]"cheese"' }, 'c3')).toEqual(['r06']);
    expect(run({ filter: 'labelReference[like]say "ch%' }, 'c3')).toEqual(['r06']);
    expect(run({ filter: 'labelReference[ilike]%Y "CHEESE" NOW' }, 'c3')).toEqual(['r06']);
    expect(run({ filter: 'labelReference[includes]"cheese""' }, 'c3')).toEqual([]);
    expect(run({ filter: 'labelReference[includes]cheese' }, 'c3')).toEqual(['r06']);
  });

  it('refuses an array order key and a key off the allow-list in a query built without the parser', () => {
    expect(() => compileOrder({ key: 'access.role', direction: 'asc' })).toThrow(new Error('cannot order by array key access.role'));
    const query = parseListQuery({});
    expect(() => compileListQuery({ ...query, filter: [{ key: 'l.id', op: 'eq', raw: 'x', value: 'x' }] })).toThrow(
      new Error('not an allow-listed key: "l.id"'),
    );
    expect(() => compileListQuery({ ...query, order: { key: 'rowid', direction: 'desc' } })).toThrow(
      new Error('not an allow-listed key: "rowid"'),
    );
  });
});

describe('how the page is read', () => {
  const compiled = (query: Record<string, string>) => compileListQuery(parseListQuery(query));

  it('sorts the matches when any comparison, not only the first, is on a rare-value key', () => {
    expect(compiled({ filter: 'status[eq]active,label.uid[eq]UID-001', order: 'created[desc]' }).orderBy).toBe('+l.created DESC, l.id ASC');
    expect(compiled({ filter: 'label.uid[gt]U,label.name[neq]x', order: 'created[asc]' }).orderBy).toBe('+l.created ASC, l.id ASC');
    expect(compiled({ filter: 'label.uid[neq]U,label.name[like]x%', order: 'created[asc]' }).orderBy).toBe('l.created ASC, l.id ASC');
    const rare = compiled({ filter: 'label.uid[eq]UID-001', order: 'status[desc]' });
    expect(rare.orderBy).toBe('+l.status DESC, l.id ASC');
    expect(rare.ranges).toBeUndefined();
  });

  it('reads a key of few values range by range unless a search or a custom field condition is there', () => {
    // includes with fewer than three characters, and like on a key without a text index, read no index of text
    for (const filter of ['labelReference[includes]ab', 'mode[like]air%', 'labelReference[like]PO%', 'label.name[ilike]éc%', 'labelReference[neq]PO-100']) {
      expect(compiled({ filter, order: 'status[asc]' }).ranges?.sortKey, filter).toBe('l.status');
    }
    for (const filter of ['labelReference[includes]abc', 'label.uid[like]UID%', 'label.name[ilike]ecl%']) {
      const search = compiled({ filter, order: 'status[asc]' });
      expect(search.orderBy, filter).toBe('l.status ASC, l.id ASC');
      expect(search.ranges, filter).toBeUndefined();
    }
  });

  it('orders the merged ranges by the value in the direction asked, then by id', () => {
    expect(compiled({ order: 'status[asc]' }).orderBy).toBe('sort_key ASC, id ASC');
    expect(compiled({ order: 'status[desc]' }).orderBy).toBe('sort_key DESC, id ASC');
  });

  it('reads the order from its index unless told to sort the matches', () => {
    expect(compileOrder({ key: 'created', direction: 'desc' })).toBe('l.created DESC, l.id ASC');
    expect(compileOrder({ key: 'id', direction: 'asc' })).toBe('l.id ASC');
    expect(compileOrder({ key: 'created', direction: 'desc' }, true)).toBe('+l.created DESC, l.id ASC');
  });

  it('compares the owner company by its integer keys for eq and neq', () => {
    expect(compiled({ filter: 'company.id[eq]c2' })).toMatchObject({
      where: '(l.owner_ck = (SELECT k.ck FROM company_keys k WHERE k.company_id = ?))',
      params: ['c2'],
    });
    expect(compiled({ filter: 'company.id[neq]c2' })).toMatchObject({
      where: '(l.owner_ck IN (SELECT k.ck FROM company_keys k WHERE k.company_id <> ?))',
      params: ['c2'],
    });
  });

  it("folds an ASCII ilike pattern with SQLite's LIKE, and any other with unicode_lower", () => {
    expect(compiled({ filter: 'label.type[ilike]TL%' })).toMatchObject({ where: "(l.label_type LIKE ? ESCAPE '\\')", params: ['TL%'] });
    expect(compiled({ filter: 'label.type[ilike]TÉ%' })).toMatchObject({
      where: "(unicode_lower(l.label_type) LIKE ? ESCAPE '\\')",
      params: ['té%'],
    });
  });

  it('binds only the text of a custom field value that is not a number', () => {
    expect(compiled({ customFields: 'po[gt]x' }).params).toEqual(['po', 'x']);
    expect(compiled({ customFields: 'po[includes]x' }).params).toEqual(['po', 'x']);
    expect(compiled({ customFields: 'po[gt]5' }).params).toEqual(['po', 5, 'po', '5']);
    expect(compiled({ customFields: 'po[includes]5' }).params).toEqual(['po', '5', 'po', 5]);
  });

  it('answers the page in the same order read range by range as read in one piece', () => {
    for (const dir of ['asc', 'desc']) {
      for (const order of ['status', 'mode', 'hasFlag', 'isArchived', 'alert.level', 'calculatedSenseData.numberOfViolations.all']) {
        const ranged = compiled({ order: `${order}[${dir}]` });
        expect(ranged.ranges, order).toBeDefined();
        const { ranges: _, ...inOnePiece } = { ...ranged, orderBy: compileOrder({ key: order, direction: dir as 'asc' | 'desc' }) };
        expect(store.pageIds(CALLER, ranged, 1000, 0), `${order}[${dir}]`).toEqual(store.pageIds(CALLER, inOnePiece, 1000, 0));
      }
    }
    expect(ordered('alert.level[desc]')).toEqual(['r01', 'r05', 'r03', 'r04', 'r02']);
    expect(ordered('mode[asc]')).toEqual(['r01', 'r02', 'r03', 'r04', 'r05']);
  });
});

describe('text searches through the trigram index', () => {
  const matchOf = (filter: string, frequency?: (column: string, trigram: string) => number | undefined) =>
    compileListQuery(parseListQuery({ filter }), frequency).params.find((p) => typeof p === 'string' && p.includes(' : '));
  const counts: Record<string, number> = { 'po-': 1000, 'o-1': 900, '-12': 12, '123': 40, 'sea': 3 };
  const known = (_column: string, trigram: string) => counts[trigram];

  it('asks for every literal run as a phrase when nothing is known of the trigrams', () => {
    expect(matchOf('labelReference[ilike]%PO-12%')).toBe('label_reference : "PO-12"');
    expect(matchOf('labelReference[like]PO-123%sea%')).toBe('label_reference : "PO-123" AND label_reference : "sea"');
  });

  it('asks for the one trigram of the runs fewest reports hold, case folded, when each is known', () => {
    expect(matchOf('labelReference[ilike]%PO-12%', known)).toBe('label_reference : "-12"');
    expect(matchOf('labelReference[like]PO-123%sea%', known)).toBe('label_reference : "sea"');
    expect(matchOf('label.sequenceCode[includes]po-123', known)).toBe('label_sequence_code : "-12"');
  });

  it('keeps the phrases when one trigram is unknown or a run is not ASCII', () => {
    expect(matchOf('labelReference[ilike]%PO-1x%', known)).toBe('label_reference : "PO-1x"');
    expect(matchOf('labelReference[like]%éPO-12%', known)).toBe('label_reference : "éPO-12"');
    expect(matchOf('label.name[ilike]%éclair%', known)).toBeUndefined();
    expect(matchOf('label.name[ilike]%éclair%')).toBeUndefined();
    const all = () => 1;
    expect(matchOf('labelReference[like]PO-1%éab%', all)).toBe('label_reference : "PO-1" AND label_reference : "éab"');
  });

  it('takes the first of the trigrams fewest reports hold', () => {
    expect(matchOf('labelReference[includes]abcd', () => 7)).toBe('label_reference : "abc"');
    expect(matchOf('labelReference[like]xyz%abcd', (_c, t) => (t === 'xyz' ? 9 : 3))).toBe('label_reference : "abc"');
  });

  it('reads an includes value whole, wildcards and all, and a pattern run by run', () => {
    expect(matchOf('labelReference[includes]ab%cd_e')).toBe('label_reference : "ab%cd_e"');
    expect(matchOf('labelReference[like]ab%cde_fgh')).toBe('label_reference : "cde" AND label_reference : "fgh"');
    expect(matchOf('labelReference[like]ab\\%cd')).toBe('label_reference : "ab%cd"');
    expect(matchOf('labelReference[like]ab%cd')).toBeUndefined();
  });

  it('leaves a run holding a NUL to the condition, which the index could not read', () => {
    expect(matchOf('labelReference[includes]abc\u0000def')).toBeUndefined();
    expect(ids('labelReference[includes]PO-\u0000100')).toEqual([]);
    expect(ids('labelReference[includes]PO-1\u0000')).toEqual([]);
  });
});

describe('pattern translation', () => {
  it('translates like patterns to GLOB', () => {
    expect(toGlob('a%b*c_d')).toBe('a*b*c?d');
    expect(toGlob('\\%\\_\\*\\\\')).toBe('%_[*]\\');
    expect(toGlob('?[]')).toBe('[?][[]]');
    expect(toGlob('a\\b\\')).toBe('a\\b\\');
  });

  it('translates like patterns to LIKE with backslash escapes', () => {
    expect(toLikePattern('a%b*c_d')).toBe('a%b%c_d');
    expect(toLikePattern('\\%\\_\\*\\\\')).toBe('\\%\\_*\\\\');
    expect(toLikePattern('a\\b')).toBe('a\\\\b');
  });
});

describe('trigram counts', () => {
  it('a text search works after the transaction that first counted its trigrams rolled back', () => {
    // The counts read an fts5vocab table in the connection's temporary schema, made at the
    // first search: made inside a write that then failed, the rollback took it away.
    const fresh = openDatabase(path.join(dir, 'rolled-back.sqlite'));
    registerSqlFunctions(fresh);
    insertFixture(fresh);
    const freshStore = new ReportStore(fresh);
    const search = (filter: string) => freshStore.pageIds(CALLER, freshStore.compile(parseListQuery({ filter })), 1000, 0);
    fresh.exec('BEGIN');
    expect(search('labelReference[includes]PO-100')).toEqual(['r01']);
    expect(fresh.prepare("SELECT count(*) FROM temp.sqlite_schema WHERE name = 'report_text_terms'").pluck().get()).toBe(1);
    fresh.exec('ROLLBACK');
    expect(fresh.prepare("SELECT count(*) FROM temp.sqlite_schema WHERE name = 'report_text_terms'").pluck().get()).toBe(0);
    // Trigrams not counted before, so their counts are read from the table again.
    expect(search('label.name[includes]CLAIR')).toEqual(['r01']);
    fresh.close();
  });
});
