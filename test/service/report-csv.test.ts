/** CSV formatting (RFC 4180) as pure functions: fields, readings and the list's table. */
import { describe, expect, test } from 'vitest';
import {
  CSV_BOM,
  csvField,
  csvLine,
  readingsCsv,
  reportTableCsvHeader,
  reportTableCsvLine,
  type ReportTableRecord,
} from '../../service/report-csv';

describe('fields', () => {
  test('quotes only what needs quoting, doubling quotes', () => {
    expect(csvField('plain')).toBe('plain');
    expect(csvField('Kuehne+Nagel')).toBe('Kuehne+Nagel');
    expect(csvField('a,b')).toBe('"a,b"');
    expect(csvField('say "hi"')).toBe('"say ""hi"""');
    expect(csvField('two\nlines')).toBe('"two\nlines"');
    expect(csvField('Rotterdam → Oslo')).toBe('Rotterdam → Oslo');
    expect(csvField('')).toBe('');
  });

  test('numbers, booleans and null as a spreadsheet reads them', () => {
    expect(csvField(-2.5)).toBe('-2.5');
    expect(csvField(0)).toBe('0');
    expect(csvField(true)).toBe('true');
    expect(csvField(null)).toBe('');
  });

  test('text that would run as a formula is defused', () => {
    expect(csvField('=HYPERLINK("x")')).toBe(`"'=HYPERLINK(""x"")"`);
    expect(csvField('+31 6')).toBe("'+31 6");
    expect(csvField('-5')).toBe("'-5");
    expect(csvField('@sum')).toBe("'@sum");
  });

  test('lines end in CRLF', () => {
    expect(csvLine(['a', 1, null, false])).toBe('a,1,,false\r\n');
  });
});

describe('readings', () => {
  const readings = {
    timestamps: [1_780_000_000, 1_780_000_600, 1_780_001_200],
    temperatures: [4.25, -1, 9],
    humidities: [55.5, Number.NaN, 60],
  };
  const about = { reference: 'SHP-7, Oslo', limits: { minTemperature: 2, maxTemperature: 8, maxHumidity: 58 } };
  const text = (r: typeof readings, trim: Parameters<typeof readingsCsv>[1], range: Parameters<typeof readingsCsv>[2]) => [...readingsCsv(r, trim, range, about)].join('');

  test('a header, then one line per reading in ISO UTC with its verdict, the reference, units and limits; an absent humidity or limit is empty', () => {
    expect(text(readings, null, 'full')).toBe(
      CSV_BOM +
        'timestamp,temperature,humidity,inTrimmedRange,verdict,reference,temperatureUnit,humidityUnit,minTemperature,maxTemperature,minHumidity,maxHumidity\r\n' +
        '2026-05-28T20:26:40Z,4.25,55.5,,in,"SHP-7, Oslo",°C,%RH,2,8,,58\r\n' +
        '2026-05-28T20:36:40Z,-1,,,out,"SHP-7, Oslo",°C,%RH,2,8,,58\r\n' +
        '2026-05-28T20:46:40Z,9,60,,out,"SHP-7, Oslo",°C,%RH,2,8,,58\r\n',
    );
  });

  test('the verdict is the alert’s: a reading on a limit is in, humidity judged only where measured and limited', () => {
    const edge = { timestamps: [1, 2, 3, 4], temperatures: [2, 8, 5, 5], humidities: [58, 20, 58.5, Number.NaN] };
    const verdicts = text(edge, null, 'full').split('\r\n').slice(1, -1).map((l) => l.split(',')[4]);
    expect(verdicts).toEqual(['in', 'in', 'out', 'in']);
    const dry = [...readingsCsv({ timestamps: [1], temperatures: [5], humidities: null }, null, 'full', { reference: '=cmd', limits: { minTemperature: 2, maxTemperature: 8 } })].join('');
    // No humidity measured: no unit for it; a reference a spreadsheet would run is defused.
    expect(dry.split('\r\n')[1]).toBe("1970-01-01T00:00:01Z,5,,,in,'=cmd,°C,,2,8,,");
  });

  test('the trim is marked on every line, or keeps only its readings', () => {
    const trim = { startTime: 1_780_000_600, endTime: 1_780_001_200 };
    expect(text(readings, trim, 'full').split('\r\n').slice(1, 4).map((l) => l.split(',')[3])).toEqual(['false', 'true', 'true']);
    expect(text(readings, trim, 'trimmed').split('\r\n').slice(1, -1).map((l) => l.split(',')[0])).toEqual([
      '2026-05-28T20:36:40Z',
      '2026-05-28T20:46:40Z',
    ]);
  });

  test('comes in chunks of whole lines', () => {
    const many = { timestamps: Array.from({ length: 25 }, (_, i) => i * 60), temperatures: Array(25).fill(5), humidities: null };
    const chunks = [...readingsCsv(many, null, 'full', about, 10)];
    expect(chunks).toHaveLength(3);
    for (const chunk of chunks) expect(chunk.endsWith('\r\n')).toBe(true);
    expect(chunks.join('').split('\r\n')).toHaveLength(27);
  });
});

describe('the list table', () => {
  test('header and a line with the table’s columns', () => {
    const record: ReportTableRecord = {
      id: 'r1',
      labelReference: 'SHP-2026-000042',
      labelUid: 'E004ABC',
      labelName: 'Vaccines · Rotterdam → Oslo',
      status: 'completed',
      alertLevel: 2,
      created: '2026-06-01T08:00:00.000Z',
      updated: '2026-06-02T08:00:00.000Z',
      hasFlag: true,
      isArchived: false,
      ownerCompanyName: 'Acme Cold Chain, Rotterdam',
      excursions: 3,
      excursionSeconds: 5400,
      degreeHours: 2.75,
      decision: { decision: 'onHold', person: { name: 'Anna Berg', login: 'anna' }, keyName: null, at: '2026-06-03T09:30:00.000Z' },
    };
    expect(reportTableCsvHeader()).toBe(
      CSV_BOM +
        'id,reference,labelUid,labelName,status,alertLevel,alert,created,updated,flag,archived,ownerCompany,decision,decisionSignedBy,decisionSignedAt,excursions,excursionSeconds,degreeHours\r\n',
    );
    expect(reportTableCsvLine(record)).toBe(
      'r1,SHP-2026-000042,E004ABC,Vaccines · Rotterdam → Oslo,completed,2,Critical,2026-06-01T08:00:00.000Z,2026-06-02T08:00:00.000Z,true,false,"Acme Cold Chain, Rotterdam",' +
        'onHold,Anna Berg (anna),2026-06-03T09:30:00.000Z,3,5400,2.75\r\n',
    );
    expect(reportTableCsvLine({ ...record, alertLevel: -1 })).toContain(',-1,No taps,');
    // No decision standing: its three fields are empty; a tool's decision names its key.
    expect(reportTableCsvLine({ ...record, decision: null })).toContain(',"Acme Cold Chain, Rotterdam",,,,3,5400,2.75\r\n');
    expect(reportTableCsvLine({ ...record, decision: { ...record.decision!, person: null, keyName: 'scanner' } })).toContain(',onHold,key scanner (a tool),');
  });
});
