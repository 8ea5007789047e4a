/**
 * The bodies of taking in labels (docs/api.md#activation-and-taps): activation and a tap's reading, derived from
 * the bundle report so that a label activated here and one imported are checked alike.
 */
import { z } from 'zod';
import { bundleReportFieldsSchema, checkReportFields } from './bundle';
import { reportedSenseDataSchema } from './sense';

/**
 * What the service decides on activation, never the body: the moment, the owner (the key's
 * company), the state of a fresh label (active, untapped, no data) and who else sees it.
 */
export const SET_ON_ACTIVATION = [
  'created',
  'updated',
  'companyId',
  'access',
  'companyState',
  'status',
  'trim',
  'numberOfTaps',
  'reportedSenseData',
] as const;
const setOnActivation: ReadonlySet<string> = new Set(SET_ON_ACTIVATION);

const omitted = Object.fromEntries(SET_ON_ACTIVATION.map((k) => [k, true])) as Record<(typeof SET_ON_ACTIVATION)[number], true>;
const { shape } = bundleReportFieldsSchema.omit(omitted);

/** POST /v2/labelReports: a bundle report without what activation sets; `id` is made when absent. */
export const activationBodySchema = z
  .strictObject(
    { ...shape, id: shape.id.optional() },
    {
      // A field the service sets is named as such, not as an unknown one.
      error: (issue) => (issue.code === 'unrecognized_keys' ? unexpectedFields(issue.keys) : undefined),
    },
  )
  .superRefine(checkReportFields);
export type ActivationBody = z.infer<typeof activationBodySchema>;

function unexpectedFields(keys: readonly string[]): string {
  const quoted = (list: string[]) => list.map((k) => `'${k}'`).join(', ');
  const setByService = keys.filter((k) => setOnActivation.has(k));
  const unknown = keys.filter((k) => !setOnActivation.has(k));
  return [
    setByService.length > 0 && `${quoted(setByService)} cannot be sent: activation sets ${setByService.length > 1 ? 'them' : 'it'}`,
    unknown.length > 0 && `unknown field${unknown.length > 1 ? 's' : ''} ${quoted(unknown)}`,
  ]
    .filter(Boolean)
    .join('; ');
}

/**
 * POST /v2/labelReports/:id/taps: what the label reported at the tap, in the bundle's own
 * `reportedSenseData` shape (datapoints checked alike, unknown fields refused).
 */
export const tapBodySchema = reportedSenseDataSchema.describe(
  'What the label reported when tapped: its datapoints (any it reported before included) and its own counters.',
);
export type TapBody = z.infer<typeof tapBodySchema>;
