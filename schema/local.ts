/**
 * Shapes of the /local endpoints: the desktop app's and local tools' extras beside /v2 (who a
 * key is, where the service listens, local API key management). Server and renderer share them.
 */
import { z } from 'zod';
import { permissionSchema } from './report';
import { passwordChangeDueSchema, personSchema } from './people';
import { DECISIONS } from './review';

export const sessionSchema = z.object({
  /** The key's id as `/local/apiKeys` lists it (`session` for the desktop app's own key). */
  keyId: z.string(),
  companyId: z.string(),
  companyName: z.string(),
  permissions: z.array(permissionSchema),
  /** The person signed in; absent for a tool's key. */
  person: personSchema.optional(),
  /** The decisions the person's role may sign, so the desk offers no other; absent with the person. */
  mayDecide: z.array(z.enum(DECISIONS)).optional(),
  /** Whether the company has people who sign in: then the desk asks for a person, and keys cannot sign. */
  hasPeople: z.boolean().optional(),
  /** Set while the person's session may do nothing but change its password (403 PASSWORD_CHANGE_REQUIRED elsewhere). */
  passwordChangeDue: passwordChangeDueSchema.optional(),
});
export type Session = z.infer<typeof sessionSchema>;

export const serviceInfoSchema = z.object({
  baseUrl: z.string(),
  port: z.int(),
  version: z.string(),
});
export type ServiceInfo = z.infer<typeof serviceInfoSchema>;

export const apiKeyInfoSchema = z.object({
  id: z.string(),
  // Keys imported from a bundle may have no name.
  name: z.string().nullable(),
  companyId: z.string(),
  permissions: z.array(permissionSchema),
  created: z.string(),
  revoked: z.string().nullable(),
});
export type ApiKeyInfo = z.infer<typeof apiKeyInfoSchema>;

/** The one answer that carries the key itself: it is shown once, when created. */
export const createdApiKeySchema = apiKeyInfoSchema.omit({ revoked: true }).extend({ key: z.string().min(1) });
export type CreatedApiKey = z.infer<typeof createdApiKeySchema>;

export const createApiKeyBodySchema = z.strictObject({
  name: z.string().trim().min(1, 'Give the key a name, so you know later where it is used.').max(200),
  permissions: z.array(permissionSchema).min(1, 'Tick at least one permission.'),
});
export type CreateApiKeyBody = z.infer<typeof createApiKeyBodySchema>;
