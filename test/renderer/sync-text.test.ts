import { describe, expect, test } from 'vitest';
import type { SyncStatus } from '../../renderer/api/sync-client';
import {
  asSentence,
  attentionText,
  deadLetterReason,
  fieldsText,
  fieldText,
  indicatorSummary,
  isSyncBusy,
  stateExplanation,
  timeAgo,
  timeUntil,
  valueText,
} from '../../renderer/lib/sync-text';

const NOW = Date.parse('2026-11-22T12:00:00.000Z');
const ago = (seconds: number) => new Date(NOW - seconds * 1000).toISOString();

function status(overrides: Partial<SyncStatus>): SyncStatus {
  return {
    configured: true,
    remoteUrl: 'https://labels.example.com',
    companyId: 'acme',
    state: 'idle',
    lastSuccessAt: null,
    lastError: null,
    pending: 0,
    conflicts: 0,
    deadLetters: 0,
    refused: 0,
    progress: null,
    nextAttemptAt: null,
    ...overrides,
  };
}

describe('sync in words', () => {
  test('times count from the moment given', () => {
    expect(timeAgo(ago(10), NOW)).toBe('just now');
    expect(timeAgo(ago(-30), NOW)).toBe('just now');
    expect(timeAgo(ago(120), NOW)).toBe('2 min ago');
    expect(timeAgo(ago(3 * 3600), NOW)).toBe('3 h ago');
    expect(timeAgo(ago(4 * 86400), NOW)).toBe('4 d ago');
    expect(timeAgo('yesterday', NOW)).toBe('yesterday');
    expect(timeUntil(ago(-30), NOW)).toBe('in 30 s');
    expect(timeUntil(ago(-240), NOW)).toBe('in 4 min');
    expect(timeUntil(ago(5), NOW)).toBe('now');
  });

  test('the header line says the state, then what matters in it', () => {
    expect(indicatorSummary(status({ state: 'idle', lastSuccessAt: ago(120) }), NOW)).toBe('Synced · synced 2 min ago');
    expect(indicatorSummary(status({ state: 'idle', lastSuccessAt: ago(120), pending: 3 }), NOW)).toBe('Synced · synced 2 min ago · 3 edits not yet sent');
    expect(indicatorSummary(status({ state: 'pulling', progress: { done: 200, total: 1000 } }), NOW)).toBe('Receiving changes · 200 of 1000');
    expect(indicatorSummary(status({ state: 'offline', pending: 1 }), NOW)).toBe('Offline · never synced · 1 edit not yet sent');
    expect(indicatorSummary(status({ state: 'off', configured: false }), NOW)).toBe('Sync off');
    expect(attentionText(status({ conflicts: 1, deadLetters: 2 }))).toBe('1 conflict, 2 refused edits');
    expect(attentionText(status({ refused: 3 }))).toBe('3 refused reports');
    expect(attentionText(status({}))).toBeNull();
  });

  test('each state is explained, offline with its next try', () => {
    for (const state of ['off', 'idle', 'pushing', 'pulling', 'reconciling', 'offline', 'paused'] as const) {
      expect(stateExplanation(status({ state }), NOW)).toMatch(/\w+/);
    }
    expect(stateExplanation(status({ state: 'offline', nextAttemptAt: ago(-30) }), NOW)).toContain('Next try in 30 s.');
    expect(stateExplanation(status({ state: 'paused' }), NOW)).toContain('refused the key');
    expect(isSyncBusy('pulling')).toBe(true);
    expect(isSyncBusy('offline')).toBe(false);
  });

  test('fields and values as people read them', () => {
    expect(fieldText('limits.maxTemperature')).toBe('Highest temperature');
    expect(fieldText('customFields.carrier')).toBe('Custom field “carrier”');
    expect(fieldText('somethingNew')).toBe('somethingNew');
    expect(fieldsText(['hasFlag', 'labelReference'])).toBe('Flag, Reference');
    expect(valueText('hasFlag', true)).toBe('Flagged');
    expect(valueText('isArchived', false)).toBe('Not archived');
    expect(valueText('limits.maxTemperature', 8)).toBe('8 °C');
    expect(valueText('limits.minHumidity', 30)).toBe('30 %RH');
    expect(valueText('limits.minHumidity', null)).toBe('not set');
    expect(valueText('customFields.tags', ['a', 2])).toBe('a, 2');
    expect(valueText('labelReference', '')).toBe('(empty)');
    expect(valueText('labelReference', 'SHP-1')).toBe('SHP-1');
  });

  test('the service\'s clauses become sentences', () => {
    expect(asSentence('connected as Acme Cold Chain')).toBe('Connected as Acme Cold Chain.');
    expect(asSentence('Already one.')).toBe('Already one.');
    expect(asSentence('  ')).toBe('');
  });

  test('refusals say why', () => {
    expect(deadLetterReason({ status: 403 })).toMatch(/role/);
    expect(deadLetterReason({ status: 404 })).toMatch(/no longer shows/);
    expect(deadLetterReason({ status: 418 })).toBe('The remote refused the edit (HTTP 418).');
  });
});
