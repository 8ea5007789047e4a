/**
 * The renderer's single set of stores and the React hooks that read them. Components select
 * single values (not fresh objects), so a store change re-renders only what it touches.
 */
import { useStore } from 'zustand';
import { createAppStores } from './app-stores';
import type { CatalogueState } from './catalogue';
import type { ConnectionState } from './connection';
import type { DetailState } from './detail';
import type { KeysState } from './keys';
import type { ListState } from './list';
import type { PickedState } from './picked';
import type { SyncUiState } from './sync';
import type { ReviewState } from './review';
import type { UiState } from './ui';
import type { WebhooksState } from './webhooks';

export const stores = createAppStores({}, { storage: typeof localStorage === 'undefined' ? null : localStorage });

export const useConnection = <T>(selector: (s: ConnectionState) => T): T => useStore(stores.connection, selector);
export const useList = <T>(selector: (s: ListState) => T): T => useStore(stores.list, selector);
export const useDetail = <T>(selector: (s: DetailState) => T): T => useStore(stores.detail, selector);
export const useKeys = <T>(selector: (s: KeysState) => T): T => useStore(stores.keys, selector);
export const useWebhooks = <T>(selector: (s: WebhooksState) => T): T => useStore(stores.webhooks, selector);
export const useSync = <T>(selector: (s: SyncUiState) => T): T => useStore(stores.sync, selector);
export const useReview = <T>(selector: (s: ReviewState) => T): T => useStore(stores.review, selector);
export const useUi = <T>(selector: (s: UiState) => T): T => useStore(stores.ui, selector);
export const usePicked = <T>(selector: (s: PickedState) => T): T => useStore(stores.picked, selector);
export const useCatalogue = <T>(selector: (s: CatalogueState) => T): T => useStore(stores.catalogue, selector);
