/**
 * Mean kinetic temperature, Haynes formula (docs/figures.md#the-figures):
 *   MKT = (ΔH/R) / −ln( mean_i exp(−(ΔH/R) / T_i) ) − 273.15,  T_i in kelvin.
 */

/** ΔH/R = 83.144 kJ/mol ÷ 8.3144 J/(mol·K). */
export const ACTIVATION_ENERGY_OVER_R = 10_000;
export const KELVIN_AT_ZERO_CELSIUS = 273.15;

/**
 * Evaluated as a log-sum-exp pivoted on the warmest reading. Taken literally, each
 * exp(−10000/T) is about 1e-16 at room temperature and underflows to 0 below about −259 °C,
 * and the mean of such tiny numbers loses nothing only by luck. Factoring out
 * exp(−10000/T_max) leaves terms in (0, 1] whose sum is at least 1, so the logarithm is always
 * well conditioned and a constant series gives back its own temperature.
 *
 * `maxTemperature` is the warmest of `temperatures`: the caller has it from its own pass.
 * Returns null without readings, and for a reading at or below absolute zero, where the
 * formula has no meaning.
 */
export function meanKineticTemperature(temperatures: ArrayLike<number>, maxTemperature: number): number | null {
  const n = temperatures.length;
  if (n === 0) return null;
  const pivot = ACTIVATION_ENERGY_OVER_R / (maxTemperature + KELVIN_AT_ZERO_CELSIUS);
  let sum = 0;
  for (let i = 0; i < n; i++) {
    const kelvin = temperatures[i] + KELVIN_AT_ZERO_CELSIUS;
    if (!(kelvin > 0)) return null;
    // exp(x_i − x_max) with x = −(ΔH/R)/T; the exponent is ≤ 0 because T_i ≤ T_max.
    sum += Math.exp(pivot - ACTIVATION_ENERGY_OVER_R / kelvin);
  }
  // −ln(mean exp(x_i)) = −x_max − ln(sum / n), and −x_max is the pivot.
  return ACTIVATION_ENERGY_OVER_R / (pivot - Math.log(sum / n)) - KELVIN_AT_ZERO_CELSIUS;
}
