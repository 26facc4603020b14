import { describe, expect, it } from 'vitest';
import { dec } from './decimal';
import { diotReport } from './diot';
import type { DiotDocFacts } from './diot-facts';
import { defaultIvaSplit } from './diot-iva';
import { reliefWarnings } from './diot-relief';
import { deriveTipoOperacion, type OperacionFacts, tipoOperacionOf } from './diot-tipo';
import { pesosCff20 } from './diot-txt';
import type { ReportDoc } from './rows';

const facts = (f: Partial<OperacionFacts>): OperacionFacts => ({
  regimenEmisor: '601',
  personaFisica: false,
  renta: false,
  servicios: false,
  soloProductos: false,
  tasasIsrRetenido: [],
  ...f,
});

describe('tipo de operación, first match wins (tax-rules §6)', () => {
  it('rent (class 801315) is 06 before the 10 % ISR a persona física’s rent bears (LISR 116)', () => {
    expect(
      deriveTipoOperacion(
        facts({
          regimenEmisor: '612',
          personaFisica: true,
          renta: true,
          servicios: true,
          tasasIsrRetenido: [0.1],
        }),
      ),
    ).toBe('06');
    // Régimen 606 (arrendamiento) is rent whatever the ClaveProdServ says.
    expect(
      deriveTipoOperacion(facts({ regimenEmisor: '606', personaFisica: true, tasasIsrRetenido: [0.1] })),
    ).toBe('06');
  });

  it('a persona física in 612 or 626 billing services, or ISR withheld at 10 % or 1.25 %, is 03', () => {
    expect(deriveTipoOperacion(facts({ regimenEmisor: '626', personaFisica: true, servicios: true }))).toBe(
      '03',
    );
    // A persona moral's services with 1.25 % withheld (LISR 113-J) — or 10 % (LISR 106).
    expect(deriveTipoOperacion(facts({ servicios: true, tasasIsrRetenido: [0.0125] }))).toBe('03');
    expect(deriveTipoOperacion(facts({ tasasIsrRetenido: [0.100001] }))).toBe('03');
    // A persona moral's services without withholdings are not "profesionales": 85.
    expect(deriveTipoOperacion(facts({ servicios: true }))).toBe('85');
  });

  it('every concept a product is 02 (a persona física in 612 selling goods too); unknown concepts are 85', () => {
    expect(
      deriveTipoOperacion(facts({ regimenEmisor: '612', personaFisica: true, soloProductos: true })),
    ).toBe('02');
    expect(deriveTipoOperacion(facts({ renta: null, servicios: null, soloProductos: null }))).toBe('85');
  });

  it('the user’s code wins only where the instructivo allows it for the tercero; global is 87, foreign 07', () => {
    expect(tipoOperacionOf('04', facts({ soloProductos: true }), '03')).toEqual({
      tipo: '03',
      derivado: false,
    });
    expect(tipoOperacionOf('05', facts({}), '06')).toEqual({ tipo: '07', derivado: true });
    expect(tipoOperacionOf('15', facts({}), undefined)).toEqual({ tipo: '87', derivado: true });
    expect(tipoOperacionOf('04', facts({}), '08')).toEqual({ tipo: '08', derivado: false });
  });
});

describe('whole pesos as CFF art. 20 adjusts them', () => {
  it('1 to 50 centavos go to the peso below, 51 to 99 to the peso above; zero and negatives are empty', () => {
    expect(pesosCff20(2133.34)).toBe('2133');
    expect(pesosCff20(10.5)).toBe('10');
    expect(pesosCff20(10.51)).toBe('11');
    expect(pesosCff20(0.5)).toBe('');
    expect(pesosCff20(0)).toBe('');
    expect(pesosCff20(-3)).toBe('');
  });

  it('at most 14 digits', () => {
    expect(pesosCff20(99_999_999_999_999)).toBe('99999999999999');
    expect(() => pesosCff20(100_000_000_000_000)).toThrow(/14 digits/);
  });
});

describe('the default IVA split (LIVA 5-II, 5-I with LISR 27-III)', () => {
  const cfdi = (f: Partial<DiotDocFacts>): DiotDocFacts => ({
    ...facts({}),
    sinCfdi: false,
    region8: null,
    metodoPago: 'PUE',
    formaPago: '03',
    noObjeto: null,
    extranjero: null,
    ...f,
  });
  const move = (total: string) => ({
    side: 'expense' as const,
    party: { rfc: 'EKU9003173C9', nombre: 'X' },
    doc: 'd',
    documentos: 1,
    base: dec(total),
    iva: dec('0'),
    retIva: dec('0'),
    retIsr: dec('0'),
    total: dec(total),
    porTasa: { base16: 0n, iva16: 0n, base8: 0n, iva8: 0n, base0: 0n, baseExenta: 0n },
  });

  it('a PUE CFDI paid in cash over 2,000.00 fails the requirements; at 2,000.00 it is creditable', () => {
    // 2,000.00 + IVA 320.00 = 2,320.00 in cash (FormaPago 01) > 2,000.00.
    const over = defaultIvaSplit(dec('320'), move('2320'), cfdi({ formaPago: '01' }));
    expect(over).toMatchObject({ noRequisitos: dec('320'), exclusivas: dec('0') });
    // 1,724.14 + IVA 275.86 = 2,000.00 exactly: the limit is "exceeds".
    const at = defaultIvaSplit(dec('275.86'), move('2000'), cfdi({ formaPago: '01' }));
    expect(at).toMatchObject({ exclusivas: dec('275.86'), noRequisitos: dec('0') });
    // Same amount by transfer (03): creditable.
    expect(defaultIvaSplit(dec('320'), move('2320'), cfdi({})).exclusivas).toBe(dec('320'));
  });

  it('a manual expense has no CFDI: its IVA is not creditable', () => {
    const split = defaultIvaSplit(dec('16'), move('116'), cfdi({ sinCfdi: true, metodoPago: null }));
    expect(split).toMatchObject({ noRequisitos: dec('16'), exclusivas: dec('0') });
  });
});

describe('credit notes received', () => {
  it('a note alone in the month goes to the returns column, and its IVA left negative is named (the TXT cannot hold it)', () => {
    const note: ReportDoc = {
      id: 'n1',
      uuid: 'N1',
      side: 'expense',
      tipoComprobante: 'E',
      metodoPago: 'PUE',
      fecha: '2025-05-20T10:00:00',
      moneda: 'MXN',
      tipoCambio: null,
      subtotal: '1000',
      descuento: null,
      total: '1160',
      ivaTrasladado: '160',
      retencionIva: null,
      retencionIsr: null,
      ivaTasa: '16',
      ivaPorTasa: { base16: '1000', iva16: '160', base8: '0', iva8: '0', base0: '0', baseExenta: '0' },
      rfcEmisor: 'ACM010101AB3',
      nombreEmisor: 'Acmé',
      rfcReceptor: 'EKU9003173C9',
      nombreReceptor: 'Escuela',
      valido: true,
      documentos: 1,
      pendingTaxDetail: 0,
      formaPago: '03',
      baseNoObjeto: '0',
      interesGravado: '0',
      interesExento: '0',
      interesNoObjeto: '0',
      combustible: false,
      usoIva: null,
      acto5c: false,
    };
    // Against a PUE invoice of April, collected then: the note gives money back in May (tax-rules §2).
    const invoice = {
      uuid: 'INV',
      tipoComprobante: 'I',
      metodoPago: 'PUE' as const,
      fecha: '2025-04-10T10:00:00',
      moneda: 'MXN',
      total: '2320',
      retencionIva: null,
      valido: true,
      history: [],
    };
    const rows = {
      docs: [note],
      payments: [],
      manualExpenses: [],
      pending: [],
      notes: [
        {
          doc: note,
          formaPago: '03',
          relacionados: [{ tipoRelacion: '01', uuid: 'INV' }],
          invoices: [invoice],
        },
      ],
    };
    const r = diotReport({ rows, facts: new Map(), overrides: new Map() }, { año: 2025, mes: 5 });
    expect(r.proveedores).toHaveLength(1);
    const [acme] = r.proveedores;
    // 1,000.00 returned, nothing paid: kept apart, never netted into a negative paid value.
    expect(acme?.actos.tasa16).toEqual({ pagado: 0, devoluciones: 1000 });
    expect(acme?.iva_acreditable.tasa16.exclusivamente_gravadas).toBe(-160);
    expect(acme?.documentos).toBe(0);
    expect(r.advertencias).toContain(
      'Notas de crédito mayores que lo pagado en el mes (ACM010101AB3 85): el archivo TXT deja vacías las cifras negativas',
    );
  });
});

describe('who must file the DIOT', () => {
  const profile = (tipoPersona: 'FISICA' | 'MORAL', regimenesFiscales: string[]) => ({
    id: 'p',
    rfc: 'EKU9003173C9',
    nombre: 'X',
    tipoPersona,
    regimenesFiscales,
  });

  it('a persona moral always files (LIVA 32-VIII); personas físicas in RESICO, 612 or 606 are told they may be relieved', () => {
    expect(reliefWarnings(profile('MORAL', ['601']))).toEqual([]);
    expect(reliefWarnings(profile('FISICA', ['626']))[0]).toMatch(
      /RESICO: la Resolución Miscelánea Fiscal la releva/,
    );
    expect(reliefWarnings(profile('FISICA', ['612']))[0]).toMatch(
      /si sus ingresos del año anterior no excedieron/,
    );
    expect(reliefWarnings(profile('FISICA', ['605']))).toEqual([]);
  });
});
