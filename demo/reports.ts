/**
 * Realistic demo label reports: products with their limits, shipping scenarios with and without
 * excursions, labels, users and custom fields. Each report derives from the seed and its number
 * only, so a smaller demo is a prefix of a larger one.
 */
import { derivedUuid } from '../schema/derived-uuid';
import type { BundleReport } from '../schema/bundle';
import { MODES, REPORT_TYPES, type Mode, type ReportType } from '../schema/report';
import type { AlertRule, Datapoint } from '../schema/sense';
import { Random } from './random';

const DAY = 86_400;

type Product = 'pharma' | 'frozen' | 'ambient';
type Scenario = 'clean' | 'spike' | 'long' | 'repeated' | 'belowMin' | 'mixed';

const PRODUCTS: Record<Product, { min: number; max: number; nominal: number; swing: number; goods: readonly string[] }> = {
  pharma: { min: 2, max: 8, nominal: 5, swing: 1.1, goods: ['Vaccines', 'Insulin', 'Biologics', 'Eye drops', 'Blood plasma', 'Antibiotics'] },
  frozen: { min: -25, max: -15, nominal: -20, swing: 1.6, goods: ['Frozen fish', 'Ice cream', 'Frozen berries', 'Frozen vegetables'] },
  ambient: { min: 15, max: 25, nominal: 20, swing: 1.8, goods: ['Chocolate', 'Wine', 'Tablets', 'Flowers', 'Coffee beans'] },
};
const SCENARIOS: readonly Scenario[] = ['clean', 'spike', 'long', 'repeated', 'belowMin', 'mixed'];
const INTERVALS: readonly (readonly [number, number])[] = [[60, 1], [120, 1], [300, 3], [600, 3], [900, 2]];
const TAGS = ['pharma', 'frozen', 'ambient', 'priority', 'fragile', 'export', 'gdp', 'retail', 'returns'];
const CARRIERS = ['DHL', 'Maersk', 'DB Schenker', 'Kuehne+Nagel', 'DSV', 'PostNord'];
const ROUTES = ['Rotterdam → Oslo', 'Amsterdam → Stockholm', 'Antwerp → Helsinki', 'Hamburg → Copenhagen', 'Basel → Gothenburg', 'Utrecht → Bergen'];
const FIRMWARE: readonly (readonly [string, string])[] = [['3.2.1', '2.1'], ['3.3.0', '2.2'], ['3.4.2', '2.2'], ['4.0.1', '3.0']];
const LABEL_TYPES: Record<ReportType, string> = {
  tempSense: 'TempSense 60d',
  humiditySense: 'HumiditySense 90d',
  shockSense: 'ShockSense 30d',
  freezeSense: 'FreezeSense 60d',
};
const SUB_COMPANIES: Record<string, readonly { id: string; name: string }[]> = {
  acme: [
    { id: 'acme-rtm', name: 'Acme Rotterdam Hub' },
    { id: 'acme-ams', name: 'Acme Amsterdam Airport' },
  ],
  nordic: [{ id: 'npl-osl', name: 'NPL Oslo Terminal' }],
  fresh: [],
};
const USERS: Record<string, readonly { id: string; name: string; email: string }[]> = {
  acme: [
    { id: 'u-acme-1', name: 'Sanne de Vries', email: 'sanne.devries@acme.example' },
    { id: 'u-acme-2', name: 'Jeroen Bakker', email: 'jeroen.bakker@acme.example' },
  ],
  nordic: [{ id: 'u-npl-1', name: 'Ingrid Halvorsen', email: 'ingrid.halvorsen@npl.example' }],
  fresh: [{ id: 'u-ffr-1', name: 'Tom Peeters', email: 'tom.peeters@freshfoods.example' }],
};
const CUSTOM_RULES: readonly (readonly AlertRule[])[] = [
  [
    { level: 1, kind: 'singleEvent', seconds: 1800 },
    { level: 2, kind: 'singleEvent', seconds: 7200 },
  ],
  [
    { level: 1, kind: 'cumulative', seconds: 600 },
    { level: 2, kind: 'singleEvent', seconds: 3600 },
  ],
  [{ level: 2, kind: 'singleEvent', seconds: 900 }],
  [
    { level: 1, kind: 'cumulative', seconds: 1800 },
    { level: 2, kind: 'cumulative', seconds: 7200 },
  ],
];

/** Report `i` of the demo for `seed`: a bundle report, exactly as an import would read it. */
export function demoReport(seed: string, i: number, reference: number): BundleReport {
  const rnd = new Random(`labeldesk-demo-report\0${seed}\0${i}`);

  // The first few reports cover every mode, type, scenario and status, so even a tiny demo has them.
  const mode: Mode = i < MODES.length ? MODES[i] : rnd.weighted([['roadTransport', 5], ['airFreight', 3], ['seaFreight', 2], ['railFreight', 1], ['stationary', 1], ['unknown', 0.3]]);
  const type: ReportType = i < REPORT_TYPES.length ? REPORT_TYPES[i] : rnd.weighted([['tempSense', 10], ['humiditySense', 3], ['freezeSense', 2], ['shockSense', 1]]);
  const scenario: Scenario = i < SCENARIOS.length ? SCENARIOS[i] : rnd.weighted([['clean', 8], ['spike', 4], ['long', 2], ['repeated', 2], ['belowMin', 2], ['mixed', 1]]);
  const product: Product = type === 'freezeSense' ? 'pharma' : rnd.weighted([['pharma', 5], ['frozen', 2], ['ambient', 3]]);
  const spec = PRODUCTS[product];

  const long = i % 500 === 7;
  const interval = long ? 60 : rnd.weighted(INTERVALS);
  // A label that was never tapped has given no reading yet: no datapoints, still active.
  const neverTapped = i === 4 || i % 250 === 13 || (!long && rnd.chance(0.05));
  const n = neverTapped ? 0 : long ? 20_000 + rnd.int(0, 400) : Math.round(20 * Math.pow(100, rnd.next()));
  const startDelay = rnd.pick([0, 0, 0, 300, 1800, 3600]);
  const duration = startDelay + Math.max(0, n - 1) * interval;

  // Active reports are still running at the reference time; completed ones ended earlier.
  const active = i < 2 ? i === 0 : neverTapped || rnd.chance(0.25);
  const window = 120 * DAY - duration - DAY;
  const configTime = active
    ? reference - duration - rnd.int(600, 2 * DAY)
    : reference - duration - DAY - rnd.int(0, Math.max(0, window));
  const createdTime = configTime + rnd.int(30, 900);
  const startTime = configTime + startDelay;

  const limits: BundleReport['senseConfig']['limits'] = { minTemperature: spec.min, maxTemperature: spec.max };
  const humidity = type === 'humiditySense';
  if (humidity) {
    limits.minHumidity = rnd.pick([30, 35, 40]);
    limits.maxHumidity = rnd.pick([60, 65, 70]);
  }
  const datapoints = makeDatapoints(rnd, n, startTime, interval, spec, scenario, humidity ? limits : null);
  const last = n > 0 ? startTime + (n - 1) * interval : startTime;

  const taps = neverTapped ? 0 : rnd.int(1, 6);
  const incomplete = !neverTapped && rnd.chance(0.03);
  const available = n + (incomplete ? rnd.int(5, 200) : 0);

  const owner = rnd.weighted([['acme', 78], ['nordic', 22]]);
  const access: NonNullable<BundleReport['access']> = [];
  if (owner === 'acme') {
    if (rnd.chance(0.45)) access.push({ companyId: 'nordic', role: rnd.chance(0.85) ? 'editor' : 'viewer' });
    if (rnd.chance(0.4)) access.push({ companyId: 'fresh', role: 'viewer' });
  } else {
    if (rnd.chance(0.6)) access.push({ companyId: 'acme', role: rnd.chance(0.5) ? 'editor' : 'viewer' });
    if (rnd.chance(0.3)) access.push({ companyId: 'fresh', role: 'viewer' });
  }
  const status = active ? 'active' : 'completed';
  const companyState: NonNullable<BundleReport['companyState']> = [];
  for (const holder of [owner, ...access.map((a) => a.companyId)]) {
    const hasFlag = rnd.chance(holder === owner ? 0.08 : 0.06);
    const isArchived = status === 'completed' && rnd.chance(holder === owner ? 0.12 : 0.2);
    if (hasFlag || isArchived) companyState.push({ companyId: holder, hasFlag, isArchived });
  }

  const [firmwareVersion, firmwareApiVersion] = rnd.pick(FIRMWARE);
  const goods = rnd.pick(spec.goods);
  const transport = mode !== 'stationary' && mode !== 'unknown';
  const labelReference = rnd.chance(0.04)
    ? ''
    : transport
      ? `SHP-${new Date(createdTime * 1000).getUTCFullYear()}-${String(rnd.int(1, 999_999)).padStart(6, '0')}`
      : `PO-${rnd.int(10_000, 99_999)}`;

  const customFields: NonNullable<BundleReport['customFields']> = [];
  if (rnd.chance(0.65)) {
    customFields.push({ customFieldId: 'po', value: `PO-${rnd.int(10_000, 99_999)}` });
    if (rnd.chance(0.7)) customFields.push({ customFieldId: 'pallets', value: rnd.int(1, 33) });
    if (rnd.chance(0.6)) {
      const tags = new Set([product, ...Array.from({ length: rnd.int(0, 2) }, () => rnd.pick(TAGS))]);
      customFields.push({ customFieldId: 'tags', value: [...tags] });
    }
    if (transport && rnd.chance(0.5)) customFields.push({ customFieldId: 'carrier', value: rnd.pick(CARRIERS) });
  }

  const trim =
    n >= 40 && rnd.chance(0.12)
      ? { startTime: startTime + Math.floor(n * 0.05) * interval, endTime: startTime + Math.floor(n * 0.9) * interval }
      : undefined;
  const subCompanies = SUB_COMPANIES[owner];
  const subCompany = subCompanies.length > 0 && rnd.chance(0.25) ? { ...rnd.pick(subCompanies) } : undefined;

  const report: BundleReport = {
    id: derivedUuid('demo-report', seed, i),
    created: new Date(createdTime * 1000).toISOString(),
    updated: new Date(Math.max(createdTime, Math.min(reference, last + rnd.int(0, 3600))) * 1000).toISOString(),
    companyId: owner,
    ...(subCompany && { subCompany }),
    user: { ...rnd.pick(USERS[owner]) },
    ...(rnd.chance(0.3) && {
      labelPreset: { id: `preset-${product}`, name: `${product[0].toUpperCase()}${product.slice(1)} ${spec.min}…${spec.max} °C` },
    }),
    label: {
      uid: 'E004' + rnd.hex(12).toUpperCase(),
      sequenceCode: `${type.slice(0, 2).toUpperCase()}-${rnd.hex(6).toUpperCase()}`,
      type: LABEL_TYPES[type],
      name: `${goods} · ${rnd.pick(ROUTES)}`,
      firmwareVersionInfo: { firmwareVersion, firmwareApiVersion },
      ...(rnd.chance(0.3) && { batteryLifeDays: rnd.pick([180, 365, 730]) }),
    },
    mode,
    type,
    status,
    labelReference,
    senseConfig: {
      limits,
      interval,
      configTime,
      startDelay,
      runningTime: Math.max(duration, rnd.pick([7, 14, 30, 60, 90]) * DAY),
    },
    // Report 1 has spikes and rules with delays: excursions that raise no alert, as happens.
    ...((i === 1 || rnd.chance(0.2)) && { alertsConfig: { rules: (i === 1 ? CUSTOM_RULES[0] : rnd.pick(CUSTOM_RULES)).map((r) => ({ ...r })) } }),
    numberOfTaps: taps,
    dataIsIncomplete: incomplete,
    reportedSenseData: {
      datapoints,
      ...(n > 0 && { currentTime: Math.min(reference, last + rnd.int(0, interval)) }),
      numberOfDatapointsAvailable: available,
      numberOfMeasurementsOccurred: available + (active ? rnd.int(0, 3) : 0),
    },
    ...(trim && { trim }),
    ...(customFields.length > 0 && { customFields }),
    ...(access.length > 0 && { access }),
    ...(companyState.length > 0 && { companyState }),
  };
  return report;
}

/**
 * A plausible curve: the product's nominal temperature, a daily swing and a slow random walk
 * kept inside the limits, then the scenario's excursions on top. Hundredths of a degree, like
 * a real sensor.
 */
function makeDatapoints(
  rnd: Random,
  n: number,
  startTime: number,
  interval: number,
  spec: (typeof PRODUCTS)[Product],
  scenario: Scenario,
  humidityLimits: { minHumidity?: number; maxHumidity?: number } | null,
): Datapoint[] {
  const temps = new Float64Array(n);
  const phase = rnd.range(0, 2 * Math.PI);
  const lo = spec.min + 0.4;
  const hi = spec.max - 0.4;
  let walk = 0;
  for (let k = 0; k < n; k++) {
    walk = walk * 0.98 + rnd.gauss() * 0.12;
    const t = startTime + k * interval;
    const v = spec.nominal + spec.swing * Math.sin((2 * Math.PI * t) / DAY + phase) + walk;
    temps[k] = Math.min(hi, Math.max(lo, v));
  }
  const above = (at: number, length: number, by: number) => bump(temps, at, length, spec.max + by);
  const below = (at: number, length: number, by: number) => bump(temps, at, length, spec.min - by);
  const spot = () => rnd.int(0, Math.max(0, n - 1));
  if (n >= 10) {
    switch (scenario) {
      case 'spike':
        for (let s = rnd.int(1, 3); s > 0; s--) above(spot(), rnd.int(1, 4), rnd.range(0.5, 5));
        break;
      case 'long':
        above(Math.floor(n * rnd.range(0.2, 0.6)), Math.max(6, Math.floor(n * rnd.range(0.1, 0.25))), rnd.range(2, 8));
        break;
      case 'repeated':
        for (let s = rnd.int(5, 12); s > 0; s--) above(spot(), rnd.int(1, 6), rnd.range(0.3, 3));
        break;
      case 'belowMin':
        for (let s = rnd.int(1, 4); s > 0; s--) below(spot(), rnd.int(1, 8), rnd.range(0.5, 3));
        break;
      case 'mixed':
        above(spot(), rnd.int(2, 10), rnd.range(1, 4));
        below(spot(), rnd.int(2, 10), rnd.range(1, 3));
        break;
      case 'clean':
        break;
    }
  }
  const datapoints: Datapoint[] = new Array(n);
  let hum = 0;
  const hMid = humidityLimits ? ((humidityLimits.minHumidity ?? 30) + (humidityLimits.maxHumidity ?? 70)) / 2 : 0;
  const humidPeak = humidityLimits && scenario !== 'clean' ? rnd.int(0, Math.max(0, n - 1)) : -1;
  const humidLength = rnd.int(3, 30);
  for (let k = 0; k < n; k++) {
    const timestamp = startTime + k * interval;
    const temperature = Math.round(temps[k] * 100) / 100;
    if (humidityLimits) {
      hum = hum * 0.97 + rnd.gauss() * 0.6;
      let h = hMid + 6 * Math.sin((2 * Math.PI * timestamp) / DAY) + hum;
      if (humidPeak >= 0 && k >= humidPeak && k < humidPeak + humidLength) h = (humidityLimits.maxHumidity ?? 70) + 8;
      datapoints[k] = { timestamp, temperature, humidity: Math.round(Math.min(100, Math.max(0, h)) * 10) / 10 };
    } else {
      datapoints[k] = { timestamp, temperature };
    }
  }
  return datapoints;
}

/** Raises or lowers `temps` towards `peak` over `length` datapoints from `at`, in a smooth hump. */
function bump(temps: Float64Array, at: number, length: number, peak: number): void {
  const end = Math.min(temps.length, at + length);
  for (let k = at; k < end; k++) {
    const x = length === 1 ? 1 : Math.sin((Math.PI * (k - at + 0.5)) / length);
    const target = temps[k] + (peak - temps[k]) * Math.min(1, 0.6 + 0.4 * x);
    temps[k] = peak > temps[k] ? Math.max(temps[k], target) : Math.min(temps[k], target);
  }
}
