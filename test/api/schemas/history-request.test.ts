/**
 * GetIntentHistoryRequest's `page`: every field optional (and nullable), other keys kept; a wrong type refused at its
 * path. The same answers as `z.partial(Page)` gave (Page's fields are all optional already), which the worker's
 * bundle no longer carries.
 */
import { describe, expect, it } from 'vitest';
import * as z from 'zod/mini';
import { GetIntentHistoryRequest, Page } from '@/lib/api/schemas/history';

const inputs: unknown[] = [
  {},
  { page: {} },
  { page: { pageSize: 5, column: 'createdAt', after: 1_800_000_000_000 } },
  { page: { after: null, before: undefined, more: null } },
  { page: { pageSize: 5, cursor: 'kept' } },
  { page: { sort: [{ column: 'id', order: 'DESC' }] } },
  { page: { pageSize: 'five' } },
  { page: { sort: [{ column: 1 }] } },
  { page: null },
  { page: 'first' },
];

describe('GetIntentHistoryRequest.page', () => {
  it('takes any subset of the page fields, null for none, and keeps other keys', () => {
    expect(GetIntentHistoryRequest.parse({ page: {} })).toEqual({ page: {} });
    expect(GetIntentHistoryRequest.parse({ page: { pageSize: 5, after: null } })).toEqual({ page: { pageSize: 5, after: null } });
    expect(GetIntentHistoryRequest.parse({ page: { pageSize: 5, cursor: 'kept' } })).toEqual({ page: { pageSize: 5, cursor: 'kept' } });
  });

  it('refuses a wrong type at its path', () => {
    const r = GetIntentHistoryRequest.safeParse({ page: { pageSize: 'five' } });
    expect(r.success).toBe(false);
    expect(r.error?.issues[0]?.path).toEqual(['page', 'pageSize']);
    expect(GetIntentHistoryRequest.safeParse({ page: null }).success).toBe(false);
  });

  it('answers every input as z.partial(Page) did: the same data, the same issues and messages', () => {
    const before = z.object({ page: z.optional(z.partial(Page)) });
    const now = z.object({ page: GetIntentHistoryRequest.def.shape.page });
    for (const input of inputs) {
      const [a, b] = [before.safeParse(input), now.safeParse(input)];
      expect(b.success, JSON.stringify(input)).toBe(a.success);
      if (a.success) expect(b.data).toEqual(a.data);
      else expect(b.error?.issues).toEqual(a.error?.issues);
    }
  });
});
