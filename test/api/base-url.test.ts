import { describe, expect, it } from 'vitest';
import { parseAccessKey, parseBaseUrl } from '@/lib/api/base-url';

describe('parseBaseUrl', () => {
  it('accepts https anywhere and http on this machine only', () => {
    expect(parseBaseUrl('https://api.example.com/')).toMatchObject({
      ok: true,
      baseUrl: 'https://api.example.com',
      permissionPattern: 'https://api.example.com/*',
    });
    expect(parseBaseUrl('http://127.0.0.1:8080')).toMatchObject({
      ok: true,
      baseUrl: 'http://127.0.0.1:8080',
      permissionPattern: 'http://127.0.0.1/*',
    });
    expect(parseBaseUrl('http://localhost:3000/rpc/Svc')).toMatchObject({ ok: true, baseUrl: 'http://localhost:3000' });
  });
  it('refuses the rest with a reason', () => {
    expect(parseBaseUrl('api.example.com')).toMatchObject({ ok: false, message: expect.stringContaining('https://') });
    expect(parseBaseUrl('http://api.example.com')).toMatchObject({
      ok: false,
      message: expect.stringContaining('only allowed for localhost'),
    });
    expect(parseBaseUrl('javascript:alert(1)')).toMatchObject({ ok: false });
    expect(parseBaseUrl('https://api.example.com:99999')).toMatchObject({ ok: false, message: expect.stringContaining('port') });
    expect(parseBaseUrl('https://user:pw@api.example.com')).toMatchObject({ ok: false });
  });
});

describe('parseAccessKey', () => {
  it('checks the key', () => {
    expect(parseAccessKey('  abc ')).toEqual({ ok: true, accessKey: 'abc' });
    expect(parseAccessKey(' ')).toMatchObject({ ok: false });
    expect(parseAccessKey('a b')).toMatchObject({ ok: false });
    expect(parseAccessKey('k'.repeat(10_000))).toMatchObject({ ok: false });
  });

  it('refuses a key with an invisible or non-ASCII character, which fetch would refuse to send (issue 27)', () => {
    for (const key of ['ak_live\u200b123', '\u2060ak_live', 'аk_live']) {
      expect(() => new Headers({ 'X-Access-Key': key })).toThrow(TypeError);
      expect(parseAccessKey(key)).toEqual({ ok: false, message: expect.stringContaining('invisible or non-ASCII') });
    }
    // A soft hyphen is sent (one Latin-1 byte) but can be no key's character: the service would reject it unseen.
    expect(parseAccessKey('ak\u00adlive')).toEqual({ ok: false, message: expect.stringContaining('invisible or non-ASCII') });
    expect(parseAccessKey('ak_live_AbC-123.xyz~!')).toEqual({ ok: true, accessKey: 'ak_live_AbC-123.xyz~!' });
  });
});
