import { describe, expect, it } from 'vitest';
import { cadenaOriginalTimbre, qrTotal, verificationUrl } from './sat-qr';

describe('the SAT verification URL of the QR code', () => {
  it('tt is the Total without non-significant zeros, one decimal kept, at most 6', () => {
    expect(qrTotal('1160.00')).toBe('1160.0');
    expect(qrTotal('0000014300.000000')).toBe('14300.0');
    expect(qrTotal('1000.5')).toBe('1000.5');
    expect(qrTotal('853.448276')).toBe('853.448276');
    expect(qrTotal('0')).toBe('0.0');
    expect(qrTotal('12')).toBe('12.0');
  });

  it('id, re, rr, tt, fe in order; fe is the last 8 characters of the Sello', () => {
    expect(
      verificationUrl({
        uuid: '5803EB8D-81CD-4557-8719-26632D2FA434',
        rfcEmisor: 'XOCD720319T86',
        rfcReceptor: 'CARR861127SB0',
        total: '14300.00',
        sello: 'AAAAAAAArH8/bw==',
      }),
    ).toBe(
      'https://verificacfdi.facturaelectronica.sat.gob.mx/default.aspx?id=5803EB8D-81CD-4557-8719-26632D2FA434&re=XOCD720319T86&rr=CARR861127SB0&tt=14300.0&fe=rH8/bw==',
    );
  });

  it('an RFC with Ñ or & and a seal with + are percent-encoded, so the page reads the same values', () => {
    const url = verificationUrl({
      uuid: 'A',
      rfcEmisor: 'Ñ&A970701AB1',
      rfcReceptor: 'XAXX010101000',
      total: '1',
      sello: 'xxxxab+cd/e=',
    });
    expect(url).toContain('re=%C3%91%26A970701AB1&rr=XAXX010101000&tt=1.0&fe=ab%2Bcd/e=');
    const params = new URL(url).searchParams;
    expect(params.get('re')).toBe('Ñ&A970701AB1');
    expect(params.get('fe')).toBe('ab+cd/e=');
  });
});

describe('cadena original del complemento de certificación', () => {
  it('||1.1|UUID|FechaTimbrado|RfcProvCertif|SelloCFD|NoCertificadoSAT||, Leyenda only when present', () => {
    const timbre = {
      version: '1.1',
      uuid: 'U',
      fechaTimbrado: '2025-01-24T10:10:45',
      rfcProvCertif: 'SAT970701NN3',
      selloCFD: 'abc',
      noCertificadoSAT: '30001000000400002495',
      selloSAT: 'ignored',
    };
    expect(cadenaOriginalTimbre(timbre)).toBe(
      '||1.1|U|2025-01-24T10:10:45|SAT970701NN3|abc|30001000000400002495||',
    );
    expect(cadenaOriginalTimbre({ ...timbre, leyenda: 'Una  leyenda ' })).toBe(
      '||1.1|U|2025-01-24T10:10:45|SAT970701NN3|Una leyenda|abc|30001000000400002495||',
    );
  });
});
