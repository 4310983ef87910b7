/** Tracking errors are shown in the browser's language by kind; an unknown kind shows what the tracker recorded. */
import { afterEach, describe, expect, it } from 'vitest';
import { pauseText, trackingErrorText } from '@/lib/format/tracking-error';
import { useLocale } from '../i18n/fake-i18n';

const recorded = (kind: string) => ({ kind, message: 'English words the tracker recorded', at: 1 });

describe('trackingErrorText', () => {
  afterEach(() => useLocale('en'));

  it('gives the text of each kind the tracker records, in the browser’s language', () => {
    useLocale('es');
    expect(trackingErrorText(recorded('key-rejected'))).toBe(
      'El servicio rechazó la clave de acceso. El seguimiento está en pausa hasta que se actualice la clave en los ajustes.',
    );
    useLocale('zh_CN');
    expect(trackingErrorText(recorded('not-found'))).toBe('服务不认识此 intent ID（NotFound）。');
    for (const kind of [
      'expired',
      'not-found',
      'not-found-yet',
      'not-configured',
      'key-rejected',
      'origin-rejected',
      'network',
      'timeout',
      'bad-body',
    ]) {
      expect(trackingErrorText(recorded(kind)), kind).not.toBe('English words the tracker recorded');
      expect(trackingErrorText(recorded(kind)), kind).not.toMatch(/^trackErr/);
    }
  });

  it('falls back to the recorded message for a kind it has no text for (a service error’s own words)', () => {
    expect(trackingErrorText(recorded('service'))).toBe('English words the tracker recorded');
  });

  it('says why the tracker slowed down only while a rate-limit pause is recorded', () => {
    expect(pauseText({})).toBeUndefined();
    useLocale('es');
    expect(pauseText({ pausedUntil: 5, pauseReason: 'The service is rate-limiting requests; the tracker slowed down.' })).toBe(
      'El servicio está limitando las solicitudes; el seguimiento va más despacio.',
    );
  });
});
