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

/** A session: the token travels as an API key (x-api-key) until sign-out, a restart, or the lock. */
export const signedInSchema = z.object({
  token: z.string(),
  person: personSchema,
  companyId: z.string(),
  /** Minutes of inactivity after which the session locks. */
  lockAfterMinutes: z.int(),
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

export const companySettingsSchema = z.object({
  lockAfterMinutes: z.int().min(1).max(1440),
  /** A Critical report's release needs an approver other than who acknowledged its alert. */
  fourEyes: z.boolean(),
});
export type CompanySettingsAnswer = z.infer<typeof companySettingsSchema>;

export const settingsBodySchema = companySettingsSchema.partial().strict();
