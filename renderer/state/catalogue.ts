/**
 * What the filter bar offers to choose from: the custom fields in use (so ids are suggested and
 * matched in any case, and numbers are asked for where the values are numbers) and the companies
 * by name. Loaded once per signed-in key; without them the filters still work, only plainer.
 */
import { createStore } from 'zustand/vanilla';
import type { ApiClient, CompanyName, CustomFieldUsage } from '../api/client';

export interface CatalogueState {
  customFields: CustomFieldUsage[];
  companies: CompanyName[];
  load(): Promise<void>;
  reset(): void;
}

export function createCatalogueStore(options: { getClient(): ApiClient | null }) {
  let generation = 0;
  return createStore<CatalogueState>()((set) => ({
    customFields: [],
    companies: [],
    async load() {
      const client = options.getClient();
      if (!client) return;
      const gen = ++generation;
      const [fields, companies] = await Promise.allSettled([client.customFields(), client.companies()]);
      if (gen !== generation) return;
      set({
        customFields: fields.status === 'fulfilled' ? [...fields.value].sort((a, b) => a.customFieldId.localeCompare(b.customFieldId)) : [],
        companies: companies.status === 'fulfilled' ? [...companies.value].sort((a, b) => a.name.localeCompare(b.name)) : [],
      });
    },
    reset() {
      generation++;
      set({ customFields: [], companies: [] });
    },
  }));
}

export type CatalogueStore = ReturnType<typeof createCatalogueStore>;
