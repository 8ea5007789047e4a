/** The password rules in words, and what the desk refuses before sending a new password. */
import { describe, expect, it } from 'vitest';
import { changeReasonText, newPasswordProblem, passwordRulesText } from '../../renderer/lib/password-rules';

describe('password rules', () => {
  it('counts characters as the service does: an emoji is one', () => {
    expect(newPasswordProblem('🔒🔒🔒🔒🔒🔒🔒🔒🔒', '🔒🔒🔒🔒🔒🔒🔒🔒🔒', 10)).toBe('The new password is too short: it has 9 characters, and at least 10 are needed.');
    expect(newPasswordProblem('🔒🔒🔒🔒🔒🔒🔒🔒🔒🔒', '🔒🔒🔒🔒🔒🔒🔒🔒🔒🔒', 10)).toBeNull();
    expect(newPasswordProblem('a', 'a', 8)).toBe('The new password is too short: it has 1 character, and at least 8 are needed.');
  });

  it('refuses two different typings, and leaves the length to the service when the rule is unknown', () => {
    expect(newPasswordProblem('long enough here', 'long enough her', 10)).toBe('The two passwords differ: type the same password in both fields.');
    expect(newPasswordProblem('short', 'short', null)).toBeNull();
  });

  it('states each rule the company has, and none it turned off', () => {
    expect(passwordRulesText({ passwordMinLength: 12, passwordHistory: 5, passwordExpiryDays: 90 })).toEqual([
      'At least 12 characters.',
      'None of your last 5 passwords, the one you have now included.',
      'It lasts 90 days; then you choose a new one.',
    ]);
    expect(passwordRulesText({ passwordMinLength: 8, passwordHistory: 1, passwordExpiryDays: 0 })).toEqual(['At least 8 characters.', 'Not the password you have now.']);
    expect(passwordRulesText({ passwordMinLength: 8, passwordHistory: 0, passwordExpiryDays: 0 })).toEqual(['At least 8 characters.']);
  });

  it('says why the change is due', () => {
    expect(changeReasonText('expired', { passwordMinLength: 10, passwordHistory: 5, passwordExpiryDays: 30 })).toMatch(/^Your password is older than 30 days/);
    expect(changeReasonText('reset', null)).toMatch(/^An administrator reset your password/);
  });
});
