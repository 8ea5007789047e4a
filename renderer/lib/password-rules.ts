/**
 * The company's password rules in words, and the checks the desk can make itself before a new
 * password is sent: its length (counted in characters as the service counts them, so an emoji is
 * one) and that it was typed the same twice. Reuse only the service can judge: it keeps the hashes.
 */
import type { CompanySettingsAnswer, PasswordChangeDueName } from '../../schema/people';

export type PasswordRules = Pick<CompanySettingsAnswer, 'passwordMinLength' | 'passwordHistory' | 'passwordExpiryDays'>;

/** Characters as the service counts them (code points, not UTF-16 units). */
export function passwordLength(password: string): number {
  return [...password].length;
}

/** The rules a new password meets, one sentence each. */
export function passwordRulesText(rules: PasswordRules): string[] {
  const lines = [`At least ${rules.passwordMinLength} characters.`];
  if (rules.passwordHistory === 1) lines.push('Not the password you have now.');
  else if (rules.passwordHistory > 1) lines.push(`None of your last ${rules.passwordHistory} passwords, the one you have now included.`);
  if (rules.passwordExpiryDays > 0) lines.push(`It lasts ${rules.passwordExpiryDays} days; then you choose a new one.`);
  return lines;
}

/** Why the person must choose a new password before anything else. */
export function changeReasonText(due: PasswordChangeDueName, rules: PasswordRules | null): string {
  switch (due) {
    case 'firstSignIn':
      return 'An administrator chose your password. Choose your own before you go on: nobody else should know it.';
    case 'reset':
      return 'An administrator reset your password. Choose your own before you go on: nobody else should know it.';
    case 'expired':
      return rules ? `Your password is older than ${rules.passwordExpiryDays} days and has expired. Choose a new one before you go on.` : 'Your password has expired. Choose a new one before you go on.';
  }
}

/** What is wrong with a new password typed twice, before it is sent, or null. `minLength` null: not known. */
export function newPasswordProblem(password: string, again: string, minLength: number | null): string | null {
  const length = passwordLength(password);
  if (minLength !== null && length < minLength) {
    return `The new password is too short: it has ${length} character${length === 1 ? '' : 's'}, and at least ${minLength} are needed.`;
  }
  if (again !== password) return 'The two passwords differ: type the same password in both fields.';
  return null;
}
