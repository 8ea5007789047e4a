/** Limits outside the physical range are refused at the edge; no figure comes back as null. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, makeReport, startTestService, type TestService } from '../support/service-fixture';

let svc: TestService;
beforeAll(async () => {
  svc = await startTestService([makeReport('lim1')]);
});
afterAll(() => svc.stop());

describe('PATCH limits outside the physical range', () => {
  it.each([
    [{ maxTemperature: 1.7976931348623157e308 }, 'maxTemperature', 'cannot be above 1000 °C'],
    [{ minTemperature: -300 }, 'minTemperature', 'below absolute zero'],
    [{ maxHumidity: 101 }, 'maxHumidity', 'cannot be above 100 %RH'],
    [{ minHumidity: -1 }, 'minHumidity', 'cannot be below 0 %RH'],
  ])('%j is a 400 that names the limit, and changes nothing', async (limits, field, words) => {
    const before = await api(svc, '/v2/labelReports/lim1');
    const res = await api(svc, '/v2/labelReports/lim1', { method: 'PATCH', body: { limits } });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: 'INVALID_BODY' });
    expect(res.body.message).toContain(`limits.${field}`);
    expect(res.body.message).toContain(words);
    expect((await api(svc, '/v2/labelReports/lim1')).body).toEqual(before.body);
  });

  it('the widest accepted limits give finite figures', async () => {
    const res = await api(svc, '/v2/labelReports/lim1', { method: 'PATCH', body: { limits: { minTemperature: -273.15, maxTemperature: 1000 } } });
    expect(res.status).toBe(200);
    const { analysedValues } = res.body.calculatedSenseData;
    expect(analysedValues.temperature.degreeHour).toBe(0);
    expect(Number.isFinite(analysedValues.temperature.average)).toBe(true);
  });
});
