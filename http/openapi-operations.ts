/**
 * The groups of the OpenAPI document (its tags) and which operation belongs to which, with one
 * line for each operation whose route says nothing beyond its summary. Generated clients and
 * rendered references group by tag; every described route must be listed here, so a new one
 * cannot land in no group.
 */
import { ALARM_OPERATIONS, ALARMS_TAG } from './alarm-operations';
import { SHIPMENT_OPERATIONS, SHIPMENTS_TAG } from './shipment-operations';

export const TAGS = [
  { name: 'Label reports', description: 'The label report interface (/v2/labelReports): list, retrieve and change reports, and take in labels.' },
  { name: 'Review', description: 'A report reviewed under /local: its alert explained, comments, acknowledgement, decision, signed verdict changes, history and readings as CSV.' },
  { name: 'Webhooks', description: 'Signed event deliveries about the company’s reports (/v2/webhooks), with their secrets and deliveries log.' },
  { name: 'Sync', description: 'Mirroring the reports a remote instance shows to one key, and sending local edits back (/local/sync).' },
  { name: 'Keys', description: 'The API key a request carries, and the company’s local API keys (/local/session, /local/apiKeys).' },
  { name: 'People', description: 'The people who sign in at the desk: signing in, unlocking and out (/local/session/…), the company’s users (/local/users) and its settings for them (/local/settings).' },
  ALARMS_TAG,
  SHIPMENTS_TAG,
  { name: 'Local', description: 'What the desktop app and local tools need besides: where the service listens, this document, CSV of the list, words for the filter bar, facets and group figures of the list’s matches (/local/insights).' },
  { name: 'Backups', description: 'The desk’s backups, each verified when taken, and the schedule’s state (/local/backups).' },
] as const;

export type Tag = (typeof TAGS)[number]['name'];

interface Grouping {
  tag: Tag;
  /** Only where the route's own doc has no description. */
  description?: string;
}

const READ = ' (needs labelReports:read)';

export const OPERATIONS: Readonly<Record<string, Grouping>> = {
  ...ALARM_OPERATIONS,
  ...SHIPMENT_OPERATIONS,
  listLabelReports: {
    tag: 'Label reports',
    description:
      `Filters, orders and pages the reports the company has an access entry on${READ}; ` +
      'output=normal answers a LabelReportPage, output=minimal a MinimalLabelReportPage.',
  },
  getLabelReport: {
    tag: 'Label reports',
    description: `Every field with the datapoints and calculated figures, hasFlag and isArchived as the key’s company set them${READ}; a report the company has no access entry on answers 404.`,
  },
  updateLabelReport: { tag: 'Label reports' },
  previewLabelReportUpdate: { tag: 'Label reports' },
  updateLabelReportLocal: { tag: 'Label reports' },
  activateLabel: { tag: 'Label reports' },
  tapLabel: { tag: 'Label reports' },

  getLabelReportAlerts: {
    tag: 'Review',
    description: `Worked out on the trimmed range when a trim is set, as the alert itself is${READ}.`,
  },
  getLabelReportReview: {
    tag: 'Review',
    description: `Each company sharing a report keeps a review of its own; this answers the key’s company’s${READ}.`,
  },
  addLabelReportComment: {
    tag: 'Review',
    description: 'The comment joins the key’s company’s review and the report’s history, with the key (its id and name) as its author.',
  },
  acknowledgeLabelReportAlert: { tag: 'Review' },
  recordLabelReportPrinted: { tag: 'Review' },
  issueLabelReportCertificate: { tag: 'Review' },
  getLabelReportAccess: { tag: 'Review' },
  decideLabelReport: { tag: 'Review' },
  bulkLabelReports: { tag: 'Review' },
  listAuditTrail: { tag: 'Review' },
  listAuditTrailCsv: { tag: 'Review' },
  listLabelReportChangeRequests: { tag: 'Review', description: `Each request with its change, reason, meaning, who asked and, once closed, who approved (signing) or declined it${READ}.` },
  listPendingChangeRequests: {
    tag: 'Review',
    description: `What waits for a signature of a person who may release${READ}: each request names its report, change, reason and who asked.`,
  },
  requestLabelReportChange: { tag: 'Review' },
  approveLabelReportChange: { tag: 'Review' },
  declineLabelReportChange: { tag: 'Review', description: 'Declining signs nothing: the request stays in the list, declined, with who declined it and why.' },
  signIn: { tag: 'People' },
  unlockSession: { tag: 'People', description: 'A wrong password answers 401 PASSWORD_WRONG and counts as a failed sign-in; the fifth in a row locks the account and ends the session.' },
  changePassword: { tag: 'People' },
  signOut: { tag: 'People', description: 'A session also ends when it expires (sessionIdleHours, sessionMaxHours), when its person is disabled or changes the password elsewhere, or after an administrator’s reset; it survives a restart of the service.' },
  sessionActivity: { tag: 'People', description: 'The app sends it while its person uses the page (at most every half lock time); a locked session answers 401 SESSION_LOCKED.' },
  listUsers: { tag: 'People', description: 'Administrators only; a key with apiKeys:manage while the company has nobody yet.' },
  createUser: { tag: 'People', description: 'Administrators only; a key with apiKeys:manage while the company has nobody yet (the first administrator).' },
  updateUser: { tag: 'People', description: 'Administrators only. The company keeps at least one administrator who may sign in.' },
  unlockUser: { tag: 'People', description: 'Administrators only. The failed sign-ins count from zero again.' },
  resetUserPassword: { tag: 'People', description: 'Administrators only. The company’s passwordMinLength (10 by default); none of the person’s last passwordHistory.' },
  listUserEvents: { tag: 'People', description: 'Administrators only. Each event names who made it: a user or a key.' },
  getCompanySettings: { tag: 'People', description: 'Any key or person of the company.' },
  putCompanySettings: { tag: 'People', description: 'Administrators only; each field within its range (400 INVALID_BODY naming it), and a session lasts at least as long as the lock.' },
  getLabelReportHistory: {
    tag: 'Review',
    description: `Changed fields with their old and new values, who changed them and when, merged with the company’s comments, acknowledgements and decisions${READ}.`,
  },
  getLabelReportHistoryCsv: {
    tag: 'Review',
    description: `A download (Content-Disposition: attachment) of the report's change log entries (reasons included) and the company's review entries (withdrawals included), each with prev_hash and hash${READ}.`,
  },
  getLabelReportReadingsCsv: {
    tag: 'Review',
    description: `A download (Content-Disposition: attachment) of every reading, oldest first; range=trimmed keeps the trim’s only${READ}.`,
  },

  createWebhook: { tag: 'Webhooks' },
  listWebhooks: {
    tag: 'Webhooks',
    description: 'Each with its url, events, description, whether it is enabled and why delivery disabled it, if it did; secrets are never listed.',
  },
  getWebhook: {
    tag: 'Webhooks',
    description: 'Its url, events, description, whether it is enabled and why delivery disabled it; another company’s webhook answers 404.',
  },
  updateWebhook: { tag: 'Webhooks' },
  deleteWebhook: {
    tag: 'Webhooks',
    description: 'Messages not yet delivered are dropped with it; another company’s webhook, or an unknown id, answers 404.',
  },
  rotateWebhookSecret: { tag: 'Webhooks' },
  testWebhook: { tag: 'Webhooks' },
  listWebhookDeliveries: { tag: 'Webhooks' },
  redeliverWebhookMessage: {
    tag: 'Webhooks',
    description: 'The message is due again at once, with the webhook-id it had, so a receiver that handled it can drop the copy; an unknown message answers 404, a disabled webhook 409.',
  },

  getSyncStatus: {
    tag: 'Sync',
    description: 'Any valid key may read it: the remote, the worker’s state, the last completed cycle and error, how many edits wait, conflicts and dead letters.',
  },
  syncNow: {
    tag: 'Sync',
    description: 'Answers at once and runs the cycle in the background; without a remote, or without its key, it answers 409.',
  },
  listSyncConflicts: {
    tag: 'Sync',
    description: 'Any valid key may read them; each waits here until it is resolved (POST /local/sync/conflicts/{id}).',
  },
  resolveSyncConflict: {
    tag: 'Sync',
    description: 'keep: local sends the local value to the remote again, keep: remote takes the remote’s; an unknown conflict answers 404.',
  },
  listSyncDeadLetters: {
    tag: 'Sync',
    description: 'Any valid key may read them: each refused edit’s report and fields, with the status and message the remote answered.',
  },
  actOnSyncDeadLetter: {
    tag: 'Sync',
    description: 'action: retry queues the edit to be sent again, action: discard drops it and takes the remote’s values; an unknown id answers 404.',
  },
  listSyncRefused: {
    tag: 'Sync',
    description:
      'Any valid key may read them: each report the remote sent that this desk did not take (another report’s id, a value past the local API’s limits, access entries that contradict themselves), with the reason and when. A refused report is not applied and is tried again at the next reconciliation; it leaves the list once taken or no longer shown by the remote.',
  },
  getReportSyncState: {
    tag: 'Sync',
    description:
      'Needs labelReports:read and a report the key’s company can see. figures says whose figures the report shows: remote (calculated by the remote), local-edit (recalculated here after a local edit, waiting for the remote), here (a report only this desk holds).',
  },
  listSyncOutbox: {
    tag: 'Sync',
    description: 'Any valid key may read it: the reports whose local edits the next push sends.',
  },
  getSyncSettings: {
    tag: 'Sync',
    description: 'Any valid key may read them: the remote URL, the remote company and whether a remote key is held.',
  },
  setSyncSettings: {
    tag: 'Sync',
    description: 'Saves the remote URL and company and restarts sync with them; without remoteKey the key already held stays.',
  },
  testSyncConnection: {
    tag: 'Sync',
    description: 'Asks the remote who the key is and answers whether it worked, and as which company; without remoteKey, the key held for the same remote is used.',
  },

  getSession: {
    tag: 'Keys',
    description: 'Any valid key may ask: its id, its company’s id and name, and its permissions, so a tool can see what its key may do.',
  },
  listApiKeys: {
    tag: 'Keys',
    description: 'Each key’s id, name, permissions, creation and revocation time; the service keeps only hashes, so no key can be shown again.',
  },
  createApiKey: {
    tag: 'Keys',
    description: 'The key belongs to the caller’s company, with the permissions given; it is in this answer only, as the service keeps its hash.',
  },
  revokeApiKey: {
    tag: 'Keys',
    description: 'From then on the key answers 401; an unknown id, an already revoked key or another company’s answers 404.',
  },

  getInsightFacets: {
    tag: 'Local',
    description: `Each value carries the filter or customFields conditions that, added to the request’s, make the list answer exactly its reports${READ}.`,
  },
  getInsightGroups: {
    tag: 'Local',
    description: `Per group: reports, those with excursions, excursions, seconds out of range, degree-hours, mean and highest MKT, reports per alert level and per the company’s decision${READ}.`,
  },

  getInsightScreen: {
    tag: 'Local',
    description: `The groups of a time bucket, of a split and of each figure’s ranges, each as getInsightGroups answers it, from one read of the matches${READ}.`,
  },

  getOpenApiDocument: {
    tag: 'Local',
    description: 'Every route of this service with its parameters, bodies, answers and refusals, and its base URL as the server; /docs renders it.',
  },
  getServiceInfo: {
    tag: 'Local',
    description: 'Any valid key may ask: the base URL and port local tools reach this service at, and its version.',
  },
  listLabelReportsCsv: { tag: 'Local' },
  listLabelReportsForReview: { tag: 'Local' },
  listCustomFieldsInUse: {
    tag: 'Local',
    description: `For the filter bar’s suggestions: each custom field id on the reports the company sees, the kind of its values and how many reports hold it${READ}.`,
  },
  listCompaniesSeen: {
    tag: 'Local',
    description: `For showing companies by name: the key’s company and every company in the access entries of the reports it sees${READ}.`,
  },
  listBackups: {
    tag: 'Backups',
    description: 'Each backup was verified when taken: its copy opened read-only passed the integrity check, its audit chains verified and its counts equalled the database’s at that moment; failure says otherwise.',
  },
  createBackup: { tag: 'Backups' },
};
