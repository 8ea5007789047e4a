/**
 * Shapes of the people endpoints: signing in, out and unlocking, the users of a company and its
 * settings for them. Server and renderer share them.
 */
import { z } from 'zod';
import { USER_ROLES } from '../model/person';

export const userRoleSchema = z.enum(USER_ROLES);
export type UserRoleName = z.infer<typeof userRoleSchema>;

export const personSchema = z.object({
  id: z.string(),
  login: z.string(),
  /** The printed name signatures show. */
  name: z.string(),
  role: userRoleSchema,
});

const password = z.string().min(1, 'enter the password').max(1024);

export const signInBodySchema = z.strictObject({
  login: z.string().trim().min(1, 'enter the login').max(64),
  password,
});
export type SignInBody = z.infer<typeof signInBodySchema>;

export const unlockBodySchema = z.strictObject({ password });
export type UnlockBody = z.infer<typeof unlockBodySchema>;

export const changePasswordBodySchema = z.strictObject({
  /** The password now, entered again. */
  currentPassword: password,
  newPassword: z.string().max(1024),
});
export type ChangePasswordBody = z.infer<typeof changePasswordBodySchema>;

/** Why a session may do nothing but change its password: an administrator chose it (at first sign-in, after a reset), or it expired. */
export const passwordChangeDueSchema = z.enum(['firstSignIn', 'reset', 'expired']);
export type PasswordChangeDueName = z.infer<typeof passwordChangeDueSchema>;

/** A session: the token travels as an API key (x-api-key) until sign-out or expiry; it survives a restart. */
export const signedInSchema = z.object({
  token: z.string(),
  person: personSchema,
  companyId: z.string(),
  /** Minutes of inactivity after which the session locks. */
  lockAfterMinutes: z.int(),
  /** When the session ends at the latest (ISO 8601 UTC). */
  expires: z.string(),
  /** Set while the session may do nothing but change the password (POST /local/session/password). */
  passwordChangeDue: passwordChangeDueSchema.nullable(),
});
export type SignedInAnswer = z.infer<typeof signedInSchema>;

export const userInfoSchema = z.object({
  id: z.string(),
  companyId: z.string(),
  login: z.string(),
  name: z.string(),
  role: userRoleSchema,
  /** After five failed sign-ins in a row; an administrator unlocks it. */
  locked: z.boolean(),
  disabled: z.boolean(),
  /** Where alarm e-mails reach the person; null when none is known. */
  email: z.string().nullable(),
  /** Why the person must change the password at the next sign-in, or null. */
  passwordChangeDue: z.enum(['firstSignIn', 'reset']).nullable(),
  /** When the password was last set (ISO 8601 UTC): the expiry counts from it. */
  passwordChanged: z.string(),
  created: z.string(),
});
export type UserInfoAnswer = z.infer<typeof userInfoSchema>;

export const createUserBodySchema = z.strictObject({
  login: z.string().trim().min(1).max(64),
  name: z.string().trim().min(1, 'give the printed name signatures show').max(200),
  role: userRoleSchema,
  password: z.string().max(1024),
  /** Where alarm e-mails reach the person (README "Alarms"). */
  email: z.email({ message: 'not an e-mail address' }).max(254).nullable().optional(),
});
export type CreateUserBody = z.infer<typeof createUserBodySchema>;

export const updateUserBodySchema = z.strictObject({
  name: z.string().trim().min(1).max(200).optional(),
  role: userRoleSchema.optional(),
  disabled: z.boolean().optional(),
  email: z.email({ message: 'not an e-mail address' }).max(254).nullable().optional(),
});
export type UpdateUserBody = z.infer<typeof updateUserBodySchema>;

export const passwordBodySchema = z.strictObject({ password: z.string().max(1024) });

export const userEventSchema = z.object({
  id: z.int(),
  userId: z.string(),
  kind: z.string(),
  detail: z.string().nullable(),
  byUserId: z.string().nullable(),
  byKeyId: z.string().nullable(),
  at: z.string(),
});

/** A company's settings for its people, each rule with its default (docs/operations.md#people-and-passwords). */
export const companySettingsSchema = z.object({
  /** Minutes without activity after which a session locks (default 15). */
  lockAfterMinutes: z.int().min(1).max(1440),
  /** A Critical report's release needs an approver other than who acknowledged its alert (default off). */
  fourEyes: z.boolean(),
  /** Days a password lasts before its person must change it; 0: never (default 90). */
  passwordExpiryDays: z.int().min(0).max(3650),
  /** A new password may not be any of the last N, the current one included; 0: no rule (default 5). */
  passwordHistory: z.int().min(0).max(24),
  /** The least length of a password, in characters (default 10). */
  passwordMinLength: z.int().min(8).max(128),
  /** A person whose password an administrator or the command line chose changes it at the first sign-in (default on). */
  changeAtFirstSignIn: z.boolean(),
  /** A password an administrator reset is changed by its person at the next sign-in (default on). */
  changeAfterReset: z.boolean(),
  /** A session without activity for this many hours ends (default 8). */
  sessionIdleHours: z.int().min(1).max(720),
  /** A session ends this many hours after its sign-in (default 12). */
  sessionMaxHours: z.int().min(1).max(720),
});
export type CompanySettingsAnswer = z.infer<typeof companySettingsSchema>;

export const settingsBodySchema = companySettingsSchema.partial().strict();
