// Income vs expense against the profile RFC (docs/cfdi.md#classification) and the contract's `tipo`.
import { describe, expect, it } from 'vitest';
import { type Cfdi, classifyCfdi, parseCfdi, tipoOf } from '../src';
import { cfdi40, EMISOR_RFC, RECEPTOR_RFC } from './build-cfdi';

function ok(input: string): Cfdi {
  const r = parseCfdi(input);
  if (!r.ok) throw new Error(r.reason);
  return r.cfdi;
}

describe('classifyCfdi', () => {
  const invoice = ok(cfdi40());

  it('profile is the emisor → income', () => {
    expect(classifyCfdi(invoice, EMISOR_RFC)).toEqual({ side: 'income', warnings: [] });
  });

  it('profile is the receptor → expense', () => {
    expect(classifyCfdi(invoice, RECEPTOR_RFC)).toEqual({ side: 'expense', warnings: [] });
  });

  it('the profile RFC is normalised (case, spaces)', () => {
    expect(classifyCfdi(invoice, ` ${EMISOR_RFC.toLowerCase()} `)).toEqual({ side: 'income', warnings: [] });
  });

  it('profile is both emisor and receptor → self-invoice: income with a warning', () => {
    const self = ok(cfdi40({ receptor: { rfc: EMISOR_RFC, regimen: '601' } }));
    expect(classifyCfdi(self, EMISOR_RFC)).toEqual({
      side: 'income',
      warnings: [`autofactura: el RFC del perfil (${EMISOR_RFC}) es emisor y receptor`],
    });
  });

  it('profile is neither → error', () => {
    expect(classifyCfdi(invoice, 'KIJ0906199R1')).toEqual({
      error: `El RFC del perfil (KIJ0906199R1) no es emisor (${EMISOR_RFC}) ni receptor (${RECEPTOR_RFC})`,
    });
  });

  it('an RFC with & matches after XML unescaping', () => {
    const c = ok(cfdi40({ emisor: { rfc: 'H&amp;E951128469' } }));
    expect(classifyCfdi(c, 'H&E951128469')).toEqual({ side: 'income', warnings: [] });
  });

  it('nómina, profile is the employer (emisor) → expense', () => {
    const nomina = ok(cfdi40({ tipo: 'N', metodoPago: null }));
    expect(classifyCfdi(nomina, EMISOR_RFC)).toEqual({ side: 'expense', warnings: [] });
  });

  it('nómina, profile is the employee (receptor) → income', () => {
    const nomina = ok(cfdi40({ tipo: 'N', metodoPago: null }));
    expect(classifyCfdi(nomina, RECEPTOR_RFC)).toEqual({ side: 'income', warnings: [] });
  });

  it('a REP follows the same rule as an invoice', () => {
    const rep = ok(
      cfdi40({ tipo: 'P', metodoPago: null, moneda: 'XXX', subTotal: '0', total: '0', body: '' }),
    );
    expect(classifyCfdi(rep, RECEPTOR_RFC)).toEqual({ side: 'expense', warnings: [] });
  });
});

describe('tipoOf', () => {
  it.each([
    ['P', undefined, 'COMPLEMENTO_PAGO'],
    ['I', 'PUE', 'PUE'],
    ['I', 'PPD', 'PPD'],
    ['E', 'PPD', 'PPD'],
    ['E', 'PUE', 'PUE'],
    ['N', undefined, 'PUE'], // nómina is paid when issued
    ['T', undefined, 'PUE'], // traslado declares no payment
    ['I', undefined, 'PUE'], // no deferred payment declared
  ] as const)('%s with MetodoPago %s → %s', (tipoDeComprobante, metodoPago, tipo) => {
    expect(tipoOf({ tipoDeComprobante, ...(metodoPago && { metodoPago }) })).toBe(tipo);
  });
});
