/** The IndexedDB stores the popup reads directly (the worker is their only writer). */
import {
  createAsideRecords,
  createCalmStateStore,
  createIntentStore,
  createReceiptCache,
  createServiceOffsetStore,
  createTrackerStateStore,
} from '@/lib/store';

export const intentStore = createIntentStore();
export const receiptCache = createReceiptCache();
export const trackerStateStore = createTrackerStateStore();
export const calmStateStore = createCalmStateStore();
export const asideRecords = createAsideRecords();
export const serviceOffsetStore = createServiceOffsetStore();
