import { describe, expect, it } from 'vitest';
import { alertLevelInfo, formatDuration, formatHumidity, formatNumber, formatTemperature } from '../../renderer/lib/format';

describe('formatting', () => {
  it('says durations in the two largest units, rounded down', () => {
    expect(formatDuration(0)).toBe('0 s');
    expect(formatDuration(45)).toBe('45 s');
    expect(formatDuration(60)).toBe('1 min');
    expect(formatDuration(61)).toBe('1 min 1 s');
    expect(formatDuration(3599)).toBe('59 min 59 s');
    expect(formatDuration(3600)).toBe('1 h');
    expect(formatDuration(8100)).toBe('2 h 15 min');
    expect(formatDuration(86400 * 3 + 3600 * 4 + 59)).toBe('3 d 4 h');
    expect(formatDuration(86400)).toBe('1 d');
    expect(formatDuration(-90)).toBe('−1 min 30 s');
    expect(formatDuration(Number.NaN)).toBe('—');
  });

  it('names every alert level in words', () => {
    expect(alertLevelInfo(-1).label).toBe('No taps');
    expect(alertLevelInfo(0).label).toBe('None');
    expect(alertLevelInfo(1).label).toBe('Moderate');
    expect(alertLevelInfo(2).label).toBe('Critical');
    expect(alertLevelInfo(2).className).toBe('alert--critical');
    expect(alertLevelInfo(7).label).toBe('Level 7');
  });

  it('shows units and a dash for missing values', () => {
    expect(formatTemperature(4.25)).toBe('4.3 °C');
    expect(formatTemperature(null)).toBe('—');
    expect(formatHumidity(55)).toBe('55.0 %RH');
    expect(formatNumber(undefined)).toBe('—');
    expect(formatNumber(1.234, 2)).toBe('1.23');
  });
});
