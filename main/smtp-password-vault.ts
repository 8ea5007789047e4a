/**
 * The SMTP relay's password, kept between starts of the desktop app by the secret vault
 * (secret-vault.ts: safeStorage, never plain text, never in the database) and handed to the
 * service process at start, as the remote sync key is: the service holds it in memory only.
 */
import { MAX_SECRET_LENGTH, SecretVault, type SafeStorageLike, type SecretKind } from './secret-vault';

export const SMTP_PASSWORD_FILE_NAME = 'smtp-password.json';

/** Why a password cannot be taken, in words, or null when it can. Spaces are a password's own. */
export function smtpPasswordProblem(password: unknown): string | null {
  if (typeof password !== 'string') return 'the SMTP relay password must be text';
  if (password === '') return 'the SMTP relay password is empty';
  if (password.length > MAX_SECRET_LENGTH) return `the SMTP relay password is longer than ${MAX_SECRET_LENGTH} characters`;
  if (/[\u0000-\u001f\u007f]/.test(password)) return 'the SMTP relay password contains control characters';
  return null;
}

export const SMTP_PASSWORD: SecretKind = {
  fileName: SMTP_PASSWORD_FILE_NAME,
  format: 'labeldesk-smtp-password',
  name: 'SMTP relay password',
  noun: 'password',
  startName: 'SMTP relay password',
  problem: smtpPasswordProblem,
};

export function smtpPasswordVault(file: string, storage: SafeStorageLike, platform: NodeJS.Platform = process.platform): SecretVault {
  return new SecretVault(file, storage, SMTP_PASSWORD, platform);
}
