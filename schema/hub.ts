/**
 * Shapes of the hub endpoints (docs/sync.md#a-hub-for-a-team): the people a hub hands its desks,
 * and a password changed at a desk sent up. The hub answers with them and the desk reads the
 * hub's answers with them, so both sides judge the same limits.
 */
import { z } from 'zod';
import { userRoleSchema } from './people';

/** The most people one answer carries; a desk asks again from the last one's number. */
export const HUB_PEOPLE_PAGE = 500;

const PASSWORD_HASH = /^scrypt\$\d{1,9}\$\d{1,4}\$\d{1,4}\$[A-Za-z0-9_-]{8,128}\$[A-Za-z0-9_-]{16,256}$/;
const iso = z.iso.datetime({ offset: false, message: 'an ISO 8601 UTC time' });

export const passwordHashSchema = z.string().max(600).regex(PASSWORD_HASH, 'a scrypt hash with its parameters: scrypt$N$r$p$salt$hash');

export const hubPersonSchema = z.strictObject({
  id: z.string().min(1).max(100),
  login: z.string().regex(/^[A-Za-z0-9][A-Za-z0-9._@-]{0,63}$/, 'a login of 1 to 64 letters, digits and . _ @ -'),
  name: z.string().min(1).max(200),
  email: z.string().max(320).nullable(),
  role: userRoleSchema,
  disabled: z.boolean(),
  passwordHash: passwordHashSchema,
  passwordChanged: iso,
  passwordChangeDue: z.enum(['firstSignIn', 'reset']).nullable(),
  /** The hub's number of this version of the person: a later change has a higher one. */
  seq: z.int().positive(),
  /** The hub's number of the person's latest password change. */
  passwordSeq: z.int().positive(),
});
export type HubPerson = z.infer<typeof hubPersonSchema>;

export const hubPeopleQuerySchema = z.strictObject({
  after: z.coerce.number().int().min(0).default(0),
  limit: z.coerce.number().int().min(1).max(HUB_PEOPLE_PAGE).default(HUB_PEOPLE_PAGE),
});

export const hubPeoplePageSchema = z.strictObject({
  people: z.array(hubPersonSchema).max(HUB_PEOPLE_PAGE),
  /** Whether people after the last one wait: ask again from its seq. */
  more: z.boolean(),
});
export type HubPeoplePage = z.infer<typeof hubPeoplePageSchema>;

export const hubPasswordBodySchema = z.strictObject({
  passwordHash: passwordHashSchema,
  passwordChanged: iso,
  passwordChangeDue: z.enum(['firstSignIn', 'reset']).nullable(),
  /** The hub's passwordSeq of the person when the desk changed the password. */
  basedOn: z.int().min(0),
  /** The desk it was changed at, for the person's history at the hub. */
  desk: z.string().min(1).max(100),
});
export type HubPasswordBody = z.infer<typeof hubPasswordBodySchema>;

export const hubPasswordAnswerSchema = z.strictObject({
  /** False: the hub keeps the password it has (changed there or at another desk first, or the person is disabled). */
  taken: z.boolean(),
  reason: z.string().max(500).nullable(),
  person: hubPersonSchema,
});
export type HubPasswordAnswer = z.infer<typeof hubPasswordAnswerSchema>;
