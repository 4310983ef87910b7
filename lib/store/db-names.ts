/** IndexedDB database names (one object store each: idb-keyval cannot open two stores in one database). */
export const DB_NAMES = { intents: 'svc-intents', settings: 'svc-settings', receipts: 'svc-receipts' } as const;
