/** The people who sign in at the desk, as the rules see them. */

/** What each role may do grows down the list: a viewer reads, an admin manages the desk. */
export const USER_ROLES = ['viewer', 'reviewer', 'approver', 'admin'] as const;
export type UserRole = (typeof USER_ROLES)[number];

/** The person behind a request, when one is signed in (null for an API key of a tool). */
export interface SignedInPerson {
  id: string;
  login: string;
  /** The printed name signatures and the history show. */
  name: string;
  role: UserRole;
}
