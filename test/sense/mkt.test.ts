/**
 * Mean kinetic temperature. The formula is the Haynes equation as given in USP <1160>
 * "Pharmaceutical calculations in prescription compounding" (ΔH = 83.144 kJ/mol,
 * R = 8.3144 × 10⁻³ kJ/(mol·K), so ΔH/R = 10 000 K) and on Wikipedia's "Mean kinetic temperature":
 *   MKT = (ΔH/R) / −ln( (e^(−ΔH/RT₁) + … + e^(−ΔH/RTₙ)) / n ),  T in kelvin = °C + 273.15.
 * The multi-reading expected values below were computed independently of this code with Python's
 * mpmath at 40+ significant digits; the two-reading one is also worked by hand.
 */
import { describe, expect, it } from 'vitest';
import { meanKineticTemperature } from '../../sense/mkt';
import { run, series } from './helpers';

/** The sign-flipped variant some calculators use: weights the cold readings instead of the warm ones. */
function signFlippedMkt(temperatures: number[]): number {
  const mean = temperatures.reduce((s, t) => s + Math.exp(10_000 / (t + 273.15)), 0) / temperatures.length;
  return 10_000 / Math.log(mean) - 273.15;
}

const mean = (xs: number[]) => xs.reduce((s, x) => s + x, 0) / xs.length;

/** The formula with the maximum a caller passes: the warmest reading, taken here independently. */
function mkt(temperatures: ArrayLike<number>): number | null {
  return meanKineticTemperature(temperatures, Math.max(...Array.from(temperatures)));
}

describe('meanKineticTemperature', () => {
  it('equals the temperature itself for a constant series', () => {
    expect(mkt([25, 25, 25, 25, 25])).toBeCloseTo(25, 10);
    expect(mkt([-18.5, -18.5])).toBeCloseTo(-18.5, 10);
    expect(mkt(new Float64Array(1000).fill(4.2))).toBeCloseTo(4.2, 10);
  });

  it('matches the hand calculation for 20 °C and 30 °C: 26.26 °C', () => {
    // T = 293.15 K and 303.15 K; −10000/T = −34.11223 and −32.98697.
    // mean e^x = e^−32.98697 · (1 + e^−1.12526) / 2 = e^−32.98697 · 0.66229; ln 0.66229 = −0.41207.
    // MKT = 10000 / (32.98697 + 0.41207) = 299.410 K = 26.260 °C (mpmath: 26.2598869160034).
    expect(mkt([20, 30])).toBeCloseTo(26.2598869160034, 9);
  });

  it('matches a twelve-month controlled-room-temperature series (USP <1160> asks for ≥ 12 periods)', () => {
    // Monthly averages 18, 19, 21, 23, 25, 27, 28, 27, 25, 22, 20, 18 °C: mean 22.75, MKT 23.387 °C.
    const months = [18, 19, 21, 23, 25, 27, 28, 27, 25, 22, 20, 18];
    expect(mkt(months)).toBeCloseTo(23.387356299973, 9);
  });

  it('matches a cold-chain series with one warm excursion and a frozen series', () => {
    expect(mkt([5, 5, 5, 5, 5, 15])).toBeCloseTo(7.70462773201416, 9);
    expect(mkt([2, 8, 5, 12, 4, 4.5])).toBeCloseTo(6.60668987167183, 9);
    expect(mkt([-20, -18, -25])).toBeCloseTo(-20.4093033291338, 9);
  });

  it('rejects the sign-flipped formula: the correct MKT is ≥ the arithmetic mean, the flipped one below', () => {
    for (const temps of [
      [20, 30],
      [18, 19, 21, 23, 25, 27, 28, 27, 25, 22, 20, 18],
      [5, 5, 5, 5, 5, 15],
      [-20, -18, -25],
    ]) {
      const correct = mkt(temps)!;
      const flipped = signFlippedMkt(temps);
      expect(correct).toBeGreaterThan(mean(temps));
      expect(flipped).toBeLessThan(mean(temps));
      expect(Math.abs(correct - flipped)).toBeGreaterThan(0.5);
    }
    // 20 °C / 30 °C: flipped gives 23.584 °C (mpmath), ours 26.260 °C.
    expect(signFlippedMkt([20, 30])).toBeCloseTo(23.5844196321366, 9);
    expect(mkt([20, 30])).not.toBeCloseTo(23.5844196321366, 1);
  });

  it('stays exact where the literal formula would underflow', () => {
    // At −265 °C (8.15 K) e^(−10000/T) ≈ e^−1227 underflows to 0 in doubles, so a literal
    // evaluation returns −ln(0) = ∞ and MKT = −273.15. The pivoted form gives the temperature back.
    expect(mkt([-265, -265])).toBeCloseTo(-265, 9);
    // And still weights the warmer reading: between the mean and the maximum.
    const m = mkt([-265, -260])!;
    expect(m).toBeGreaterThan(-262.5);
    expect(m).toBeLessThan(-260);
  });

  it('pivots on the warmest reading wherever it stands in the series', () => {
    // 30 °C then −265 °C: the cold reading's term is e^(10000/303.15 − 10000/8.15) ≈ e^−1194, which
    // is 0 beside the warm one's, so MKT = 10000 / (10000/303.15 + ln 2) − 273.15 = 23.7611 °C.
    // Pivoting on the last reading instead would take e^+1194, which overflows.
    expect(mkt([30, -265])).toBeCloseTo(23.761079697424293, 9);
    expect(mkt([-265, 30])).toBeCloseTo(23.761079697424293, 9);
    // computeSense takes the pivot from its own pass over the readings.
    for (const temps of [[30, -265], [-265, 30], [-265, 30, -265]]) {
      const { calculated } = run(series(temps));
      expect(calculated.analysedValues.temperature.meanKineticTemperature).toBeCloseTo(mkt(temps)!, 9);
    }
  });

  it('is null without readings and at or below absolute zero', () => {
    expect(mkt([])).toBeNull();
    expect(mkt([5, -273.15])).toBeNull();
    expect(mkt([-300])).toBeNull();
  });

  it('uses a supplied maximum only as the pivot, not as a reading', () => {
    expect(meanKineticTemperature([20, 30], 30)).toBeCloseTo(26.2598869160034, 9);
  });

  it('is what computeSense reports', () => {
    const { calculated } = run(series([20, 30]));
    expect(calculated.analysedValues.temperature.meanKineticTemperature).toBeCloseTo(26.2598869160034, 9);
  });
});
