/**
 * Demo data: three companies, their API keys and realistic label reports, the same for the same
 * seed. Everything derives from the seed (its own PRNG, ids hashed from it, a fixed reference
 * date instead of the clock), except the API keys. Pure: the service writes it
 * (service/demo-seeder.ts).
 */
import type { Company, Permission } from '../schema/report';
import { sha256 } from './random';

export { demoReport } from './reports';
export { demoReview, type DemoReviewEntry } from './reviews';

export interface DemoOptions {
  reports: number;
  seed: number;
}

/** What an empty database gets when the app or `serve --demo` starts on it. */
export const DEFAULT_DEMO: DemoOptions = { reports: 2000, seed: 1 };

export const DEMO_COMPANIES: readonly Company[] = [
  { id: 'acme', name: 'Acme Cold Chain', shortCode: 'ACME' },
  { id: 'nordic', name: 'Nordic Pharma Logistics', shortCode: 'NPL' },
  { id: 'fresh', name: 'FreshFoods Retail', shortCode: 'FFR' },
];

/**
 * The demo's API keys, by name. The data is the same everywhere; keys never are: each database
 * gets its own random keys, made once and shown once (service/demo-seeder.ts).
 */
export const DEMO_KEYS: readonly { companyId: string; name: string; permissions: readonly Permission[] }[] = [
  { companyId: 'acme', name: 'Acme demo (read, update, keys)', permissions: ['labelReports:read', 'labelReports:update', 'apiKeys:manage'] },
  { companyId: 'acme', name: 'Acme demo (read only)', permissions: ['labelReports:read'] },
  { companyId: 'nordic', name: 'Nordic demo (read, update, keys)', permissions: ['labelReports:read', 'labelReports:update', 'apiKeys:manage'] },
  { companyId: 'fresh', name: 'FreshFoods demo (read, update, keys)', permissions: ['labelReports:read', 'labelReports:update', 'apiKeys:manage'] },
];

/** The moment the demo data is "now": mid-October 2026, a few days earlier or later per seed. */
export function referenceTime(seed: string): number {
  const base = Date.UTC(2026, 9, 20, 12, 0, 0) / 1000;
  const offset = parseInt(sha256(`labeldesk-demo-reference\0${seed}`).slice(0, 8), 16);
  return base - (offset % (14 * 24)) * 3600;
}
