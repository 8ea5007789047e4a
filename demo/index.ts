/**
 * Demo data: three companies, their API keys and realistic label reports, the same for the same
 * seed. Everything derives from the seed (its own PRNG, ids and keys hashed from it, a fixed
 * reference date instead of the clock). Pure: the service writes it (service/demo-seeder.ts).
 */
import { derivedUuid } from '../service/bundle-import/derived-uuid';
import type { Company, Permission } from '../schema/report';
import { sha256 } from './random';

export { demoReport } from './reports';

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

export interface DemoKey {
  id: string;
  companyId: string;
  key: string;
  permissions: Permission[];
  name: string;
}

const FULL: Permission[] = ['labelReports:read', 'labelReports:update', 'apiKeys:manage'];
const DEMO_KEYS: readonly { companyId: string; purpose: string; name: string; permissions: Permission[] }[] = [
  { companyId: 'acme', purpose: 'full', name: 'Acme demo (read, update, keys)', permissions: FULL },
  { companyId: 'acme', purpose: 'read', name: 'Acme demo (read only)', permissions: ['labelReports:read'] },
  { companyId: 'nordic', purpose: 'full', name: 'Nordic demo (read, update, keys)', permissions: FULL },
  { companyId: 'fresh', purpose: 'full', name: 'FreshFoods demo (read, update, keys)', permissions: FULL },
];

export function demoKeys(seed: number): DemoKey[] {
  const seedText = String(seed);
  return DEMO_KEYS.map((k) => ({
    id: derivedUuid('demo-key', seedText, k.companyId, k.purpose),
    companyId: k.companyId,
    key: 'ldk_demo_' + sha256(`labeldesk-demo-key\0${seedText}\0${k.companyId}\0${k.purpose}`).slice(0, 40),
    permissions: [...k.permissions],
    name: k.name,
  }));
}

/** The moment the demo data is "now": mid-October 2026, a few days earlier or later per seed. */
export function referenceTime(seed: string): number {
  const base = Date.UTC(2026, 9, 20, 12, 0, 0) / 1000;
  const offset = parseInt(sha256(`labeldesk-demo-reference\0${seed}`).slice(0, 8), 16);
  return base - (offset % (14 * 24)) * 3600;
}
