/**
 * The company's password rules in words, and the checks the desk can make itself before a new
 * password is sent: its length (counted in characters as the service counts them, so an emoji is
 * one) and that it was typed the same twice. Reuse only the service can judge: it keeps the hashes.
 * Also the administrator's side: the rules' ranges (the schema the service judges them by) and a
 * person's e-mail address, each refused in words before anything is sent.
 */
import { companySettingsSchema, updateUserBodySchema, type CompanySettingsAnswer, type PasswordChangeDueName } from '../../schema/people';

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

/** The company's password rules that take a number, in words, with what 0 means where it means something. */
const POLICY_NUMBERS = {
  passwordMinLength: ['The least length of a password', ''],
  passwordExpiryDays: ['The days a password lasts', ' (0: never expires)'],
  passwordHistory: ['The earlier passwords that may not come back', ' (0: no rule)'],
} as const satisfies Partial<Record<keyof CompanySettingsAnswer, readonly [string, string]>>;

export type PolicyNumber = keyof typeof POLICY_NUMBERS;
export const POLICY_NUMBER_NAMES = Object.keys(POLICY_NUMBERS) as PolicyNumber[];

/** The range the service takes for a rule: read from the schema both sides share. */
export function policyRange(name: PolicyNumber): { min: number; max: number } {
  const field = companySettingsSchema.shape[name];
  return { min: field.minValue ?? 0, max: field.maxValue ?? Number.MAX_SAFE_INTEGER };
}

/** What is wrong with the password rules as typed, in words, before they are sent; or null. */
export function policyProblem(change: Partial<Pick<CompanySettingsAnswer, PolicyNumber>>): string | null {
  for (const name of POLICY_NUMBER_NAMES) {
    const value = change[name];
    if (value === undefined) continue;
    const { min, max } = policyRange(name);
    if (!Number.isInteger(value) || value < min || value > max) {
      const [words, zero] = POLICY_NUMBERS[name];
      return `${words} is a whole number from ${min} to ${max}${zero}.`;
    }
  }
  return null;
}

/** What is wrong with an e-mail address as typed, or null; empty means none. */
export function emailProblem(email: string): string | null {
  const trimmed = email.trim();
  if (trimmed === '') return null;
  return updateUserBodySchema.shape.email.safeParse(trimmed).success ? null : `“${trimmed}” is not an e-mail address.`;
}
