/** The little of the `chrome` global that e2e tests call inside the extension's worker (via worker.evaluate). */
declare const chrome: {
  notifications: { getAll(): Promise<Record<string, boolean>>; create(...args: unknown[]): unknown };
  runtime: { id: string; sendMessage(message: unknown): Promise<unknown> };
};
