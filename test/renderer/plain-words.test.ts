import { z } from 'zod';
import { describe, expect, it } from 'vitest';
import { ApiClientError } from '../../renderer/api/client';
import { plainApiError, plainText, plainZodError } from '../../renderer/lib/plain-words';
import { customFieldIdSchema } from '../../schema/report';
import { decisionBodySchema } from '../../schema/review';

const ids = /\b[a-z]+[A-Z]\w*\b|[a-z]+:[a-z]+|\$\./;

describe('refusals in plain words', () => {
  it('never names a permission', () => {
    const err = new ApiClientError(403, 'PERMISSION_DENIED', 'the API key lacks the labelReports:update permission');
    expect(plainApiError(err, 'release, reject or hold reports')).toBe('This key may not release, reject or hold reports.');
    expect(plainText('This API key may only read reports (it lacks the labelReports:update permission).')).toBe(
      'This API key may only read reports.',
    );
  });

  it('puts field ids in words and drops JSON paths', () => {
    const id = customFieldIdSchema.safeParse('carrier name');
    expect(id.success).toBe(false);
    const text = plainZodError(id.error!);
    expect(text).toBe('A field id may contain only letters, digits, _ . and -.');
    expect(text).not.toMatch(ids);
    expect(plainText('$.limits.minTemperature: a temperature limit cannot be below absolute zero (-273.15 °C)')).toBe(
      'A temperature limit cannot be below absolute zero (-273.15 °C).',
    );
    expect(plainText('Viewers can only update hasFlag and isArchived')).toBe('Viewers can only update Flagged and Archived.');
  });

  it('says a missing reason as a sentence', () => {
    const body = decisionBodySchema.safeParse({ decision: 'released', reason: '  ' });
    expect(plainZodError(body.error!)).toBe('Write the reason; it cannot be empty.');
  });

  it('tells a role refusal and a gone report apart', () => {
    expect(plainApiError(new ApiClientError(403, 'ROLE_FORBIDDEN', 'Only the label report owner can update limits'), 'change the limits')).toBe(
      'Only the report owner can update limits.',
    );
    expect(plainApiError(new ApiClientError(404, 'NOT_FOUND', 'label report x not found'), 'comment')).toMatch(/not there any more/);
  });
});
