/** Taking a tap's readings into the stored ones: new timestamps appended, known ones left alone. */
import { describe, expect, it } from 'vitest';
import { appendNewReadings, columnsFromDatapoints, datapointsFromColumns } from '../../sense';

const stored = columnsFromDatapoints([
  { timestamp: 10, temperature: 4 },
  { timestamp: 20, temperature: 5 },
]);

describe('appendNewReadings', () => {
  it('keeps the stored reading of a timestamp it already has, and the first of a tap’s own duplicates', () => {
    const merged = appendNewReadings(stored, [
      { timestamp: 20, temperature: 99 },
      { timestamp: 30, temperature: 6 },
      { timestamp: 30, temperature: 98 },
      { timestamp: 40, temperature: 7 },
    ]);
    expect(datapointsFromColumns(merged)).toStrictEqual([
      { timestamp: 10, temperature: 4 },
      { timestamp: 20, temperature: 5 },
      { timestamp: 30, temperature: 6 },
      { timestamp: 40, temperature: 7 },
    ]);
  });

  it('gives humidity a column only when a reading has it, absent for the others', () => {
    expect(appendNewReadings(stored, [{ timestamp: 30, temperature: 6 }]).humidities).toBeNull();
    const merged = appendNewReadings(stored, [{ timestamp: 30, temperature: 6, humidity: 55 }]);
    expect(datapointsFromColumns(merged)).toStrictEqual([
      { timestamp: 10, temperature: 4 },
      { timestamp: 20, temperature: 5 },
      { timestamp: 30, temperature: 6, humidity: 55 },
    ]);
    const withHumidity = columnsFromDatapoints([{ timestamp: 10, temperature: 4, humidity: 40 }]);
    expect(Array.from(appendNewReadings(withHumidity, [{ timestamp: 20, temperature: 5 }]).humidities!)).toEqual([40, NaN]);
  });

  it('hands back the stored columns when nothing is new', () => {
    expect(appendNewReadings(stored, [{ timestamp: 10, temperature: 1 }])).toBe(stored);
    expect(appendNewReadings(stored, [])).toBe(stored);
  });
});
