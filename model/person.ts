/** The people who sign in at the desk, as the rules see them. */
import { PERMISSIONS, type Permission } from '../schema/report';

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

/** What a person may do beyond a key's permissions: the review's signatures and the desk's management. */
export type PersonAction = 'comment' | 'edit' | 'acknowledge' | 'onHold' | 'rejected' | 'released' | 'manageUsers';

/**
 * The one table of what each role may do (README "People and signatures"). A viewer holds
 * labelReports:update only to comment: the rules refuse its edits by role.
 */
export const ROLE_GRANTS: Record<UserRole, { permissions: readonly Permission[]; actions: readonly PersonAction[] }> = {
  viewer: { permissions: ['labelReports:read', 'labelReports:update'], actions: ['comment'] },
  reviewer: {
    permissions: ['labelReports:read', 'labelReports:update', 'labelReports:create'],
    actions: ['comment', 'edit', 'acknowledge', 'onHold', 'rejected'],
  },
  approver: {
    permissions: ['labelReports:read', 'labelReports:update', 'labelReports:create'],
    actions: ['comment', 'edit', 'acknowledge', 'onHold', 'rejected', 'released'],
  },
  admin: {
    permissions: PERMISSIONS,
    actions: ['comment', 'edit', 'acknowledge', 'onHold', 'rejected', 'released', 'manageUsers'],
  },
};

export function mayDo(person: Pick<SignedInPerson, 'role'>, action: PersonAction): boolean {
  return ROLE_GRANTS[person.role].actions.includes(action);
}
