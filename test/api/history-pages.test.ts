/** iterateIntentHistory (docstring): follows `nextPage` until it is absent or null or says `more: false`. */
import { describe, expect, it } from 'vitest';
import { iterateIntentHistory } from '@/lib/api/history-pages';
import type { GetIntentHistoryResponse } from '@/lib/api/schemas/history';

/** An API answering `pages` in turn, recording each request's page. */
function api(pages: Array<Partial<GetIntentHistoryResponse>>) {
  const asked: unknown[] = [];
  return {
    asked,
    getIntentHistory: async (request: { page?: unknown } = {}) => {
      asked.push(request.page);
      return { intents: [], ...pages[asked.length - 1] } as GetIntentHistoryResponse;
    },
  };
}

const all = async (a: ReturnType<typeof api>) => {
  const out: unknown[] = [];
  for await (const h of iterateIntentHistory(a, { page: { pageSize: 2 } })) out.push(h);
  return out;
};

describe('iterateIntentHistory stops', () => {
  it('when nextPage is absent or null', async () => {
    for (const last of [{}, { nextPage: null }]) {
      const a = api([{ nextPage: { pageSize: 2, after: 7 } }, last]);
      await all(a);
      expect(a.asked).toEqual([{ pageSize: 2 }, { pageSize: 2, after: 7 }]);
    }
  });
  it('when nextPage says more: false, even with a cursor', async () => {
    const a = api([{ nextPage: { pageSize: 2, after: 7, more: false } }]);
    await all(a);
    expect(a.asked).toHaveLength(1);
  });
});
