/** The alert rules form read into rules: minutes to seconds, a comma as decimal point, and refusals in words. */
import { describe, expect, it } from 'vitest';
import { rulesFromForm } from '../../renderer/components/AlertRulesEditor';

describe('rulesFromForm', () => {
  it('reads minutes as seconds, with a comma or a point', () => {
    expect(rulesFromForm([{ level: '1', kind: 'cumulative', minutes: '0' }, { level: '2', kind: 'singleEvent', minutes: '1,5' }])).toEqual({
      rules: [{ level: 1, kind: 'cumulative', seconds: 0 }, { level: 2, kind: 'singleEvent', seconds: 90 }],
    });
  });
  it('refuses no rule at all, and minutes that are not a number of 0 or more, naming the rule', () => {
    expect(rulesFromForm([])).toEqual({ error: expect.stringMatching(/at least one alert rule/) });
    expect(rulesFromForm([{ level: '1', kind: 'cumulative', minutes: '5' }, { level: '2', kind: 'cumulative', minutes: '-1' }])).toEqual({
      error: 'Rule 2: “-1” is not a number of minutes (0 or more).',
    });
    expect(rulesFromForm([{ level: '1', kind: 'cumulative', minutes: ' ' }])).toEqual({ error: expect.stringMatching(/^Rule 1/) });
  });
});
