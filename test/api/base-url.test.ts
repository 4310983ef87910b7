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

describe('parseBaseUrl: each refusal says its own reason', () => {
  const reason = (input: string) => {
    const r = parseBaseUrl(input);
    expect(r.ok, input).toBe(false);
    return r.ok ? '' : r.message;
  };
  it('a reason per problem, none empty, none shared', () => {
    const reasons = [
      reason('   '),
      reason(`https://api.example.com/${'a'.repeat(2_100)}`),
      reason('api.example.com'),
      reason('https://api.example.com:99999'),
      reason('ftp://files.example.com'),
      reason('http://api.example.com'),
      reason('https://user:pw@api.example.com'),
      reason('https://api.example.com/?a=1'),
    ];
    for (const r of reasons) expect(r).not.toBe('');
    expect(new Set(reasons).size).toBe(reasons.length);
  });
  it('a scheme must start with a letter: a leading digit is a missing scheme, not a bad URL', () => {
    expect(reason('1https://api.example.com')).toBe(reason('api.example.com'));
  });
  it('refuses a user name alone, a password alone, a query alone and a fragment alone', () => {
    expect(reason('https://user@api.example.com')).toBe(reason('https://user:pw@api.example.com'));
    expect(reason('https://:pw@api.example.com')).toBe(reason('https://user:pw@api.example.com'));
    expect(reason('https://api.example.com/#top')).toBe(reason('https://api.example.com/?a=1'));
  });
  it('reads a URL trimmed of surrounding white space', () => {
    expect(parseBaseUrl(' \thttps://api.example.com \n')).toMatchObject({ ok: true, baseUrl: 'https://api.example.com' });
  });
  it('drops every trailing slash and a final /rpc/Svc only, not a path that merely starts with it', () => {
    expect(parseBaseUrl('https://api.example.com/svc//')).toMatchObject({ ok: true, baseUrl: 'https://api.example.com/svc' });
    expect(parseBaseUrl('https://proxy.example.com/rpc/Svc-v2')).toMatchObject({
      ok: true,
      baseUrl: 'https://proxy.example.com/rpc/Svc-v2',
    });
  });
});

describe('parseAccessKey: each refusal says its own reason', () => {
  const reason = (input: string) => {
    const r = parseAccessKey(input);
    expect(r.ok, input).toBe(false);
    return r.ok ? '' : r.message;
  };
  it('a reason per problem, none empty, none shared', () => {
    const reasons = [reason(''), reason('ak live'), reason('ak\u200blive'), reason('k'.repeat(513))];
    for (const r of reasons) expect(r).not.toBe('');
    expect(new Set(reasons).size).toBe(reasons.length);
  });
  it('accepts a key of 512 characters', () => {
    expect(parseAccessKey('k'.repeat(512))).toEqual({ ok: true, accessKey: 'k'.repeat(512) });
  });
});
