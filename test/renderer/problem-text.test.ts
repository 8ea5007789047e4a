import { describe, expect, it } from 'vitest';
import { ApiClientError, NETWORK_ERROR } from '../../renderer/api/client';
import { plainProblem, SIGNED_OUT, UNREACHABLE } from '../../renderer/lib/problem-text';

describe('refusals in plain words', () => {
  it('never shows a permission id, and says what the key may not do', () => {
    const text = plainProblem(new ApiClientError(403, 'PERMISSION_DENIED', 'the API key lacks the labelReports:update permission'));
    expect(text).toBe('This key may only read reports, not change them.');
    expect(plainProblem(new ApiClientError(403, 'PERMISSION_DENIED', 'the API key lacks the something:new permission'))).toBe('This key may not do this.');
  });

  it('says what to do about a revoked key and a missing service', () => {
    expect(plainProblem(new ApiClientError(401, 'API_KEY_INVALID', 'the API key is unknown or revoked'))).toBe(SIGNED_OUT);
    expect(plainProblem(new ApiClientError(0, NETWORK_ERROR, 'unreachable at http://127.0.0.1:1'))).toBe(UNREACHABLE);
  });

  it('turns the service’s own sentences into sentences', () => {
    expect(plainProblem(new ApiClientError(403, 'ROLE_FORBIDDEN', 'Only the label report owner can update limits'))).toBe(
      'Only the label report owner can update limits.',
    );
    expect(plainProblem(new Error('boom'))).toBe('Boom.');
  });
});
