/** Whole days of battery left, assuming the label drains evenly from its configuration. */
export function estimatedBatteryDaysLeft(configTime: number, nowSeconds: number, batteryLifeDays = 365): number {
  return Math.max(0, Math.floor(batteryLifeDays - (nowSeconds - configTime) / 86_400));
}
