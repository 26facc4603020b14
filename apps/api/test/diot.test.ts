// The DIOT version 2 (tax-rules §6, docs/diot.md) over a May 2025 of a persona moral, imported
// through the real import and typed in through the API: every figure is worked out by hand below.

import { invoiceXml, newUuid, type Party } from '@folio/cfdi/testing';
import { createFolioRestClient } from '@folio/sdk/rest';
import { beforeAll, describe, expect, it } from 'vitest';
import { imported } from './cfdi-helpers';
import {
  bearer,
  createProfile,
  expectError,
  request,
  setPlan,
  signUp,
  startTestApp,
  type TestApp,
  type TestUser,
  trpcClient,
} from './harness';

const ME: Party = { rfc: 'EKU9003173C9', nombre: 'Escuela Kemper Urgate', regimen: '601' };
/** A persona moral selling goods (computers, ClaveProdServ 43211500) and services (81111500). */
const ACME: Party = { rfc: 'ACM010101AB3', nombre: 'Acmé Maquinaria', regimen: '601' };
/** A persona física in 612 renting an office to us (80131500): ISR 10 % and IVA 2/3 withheld. */
const JOSE: Party = { rfc: 'PEJJ800101AA2', nombre: 'José Pérez Núñez', regimen: '612' };
/** A persona física in 612 selling goods from Tijuana (LugarExpedicion 22000) at 8 %. */
const CARLOS: Party = { rfc: 'COSC8001137NA', nombre: 'Carlos Cortés Soto', regimen: '612' };

let t: TestApp;
let u: TestUser;
let profileId: string;
/** The foreign suppliers' manual expenses, by tax id. */
const foreignIds = new Map<string, string>();

const diotPath = (format = 'json') => `/api/reports/diot?profileId=${ME.rfc}&año=2025&mes=5&format=${format}`;

async function diotJson() {
  const res = await request(t, 'GET', diotPath(), { headers: bearer(u.token) });
  expect(res.status).toBe(200);
  return (await res.json()).data;
}

async function diotLines(): Promise<string[][]> {
  const res = await request(t, 'GET', diotPath('txt'), { headers: bearer(u.token) });
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toBe('text/plain; charset=utf-8');
  expect(res.headers.get('content-disposition')).toContain(`filename="diot-${ME.rfc}-2025-05.txt"`);
  const text = await res.text();
  expect(text.endsWith('\n')).toBe(true);
  return text
    .slice(0, -1)
    .split('\n')
    .map((l) => l.split('|'));
}

/** A TXT line as SAT numbers its fields (1–54): only the positions given are filled. */
function line(filled: Record<number, string>): string[] {
  return Array.from({ length: 54 }, (_, i) => filled[i + 1] ?? '');
}

const setOverride = (clave: string, body: object) =>
  request(t, 'PUT', `/api/profiles/${profileId}/diot/proveedores/${clave}`, {
    headers: bearer(u.token),
    body,
  });

beforeAll(async () => {
  t = await startTestApp();
  u = await signUp(t);
  await setPlan(t, u.id, 'PRO');
  profileId = (
    await createProfile(t, u, {
      nombre: ME.nombre,
      rfc: ME.rfc,
      tipo_persona: 'MORAL',
      regimenes_fiscales: ['601'],
    })
  ).id;
  const put = (xml: string) => imported(t, u, profileId, xml);
  const purchase = (emisor: Party, fecha: string, extra: Partial<Parameters<typeof invoiceXml>[0]> = {}) => {
    const uuid = newUuid();
    return { uuid, xml: invoiceXml({ uuid, emisor, receptor: ME, fecha, ...extra }) };
  };
  // ACME: goods 10,000.00 + IVA 1,600.00 and services 5,000.00 + IVA 800.00 (with a 300.00 fee not
  // subject to IVA), both PUE by transfer.
  const goods = purchase(ACME, '2025-05-05T10:00:00', {
    conceptos: [{ descripcion: 'Computadora', importe: 10000, claveProdServ: '43211500' }],
  });
  await put(goods.xml);
  await put(
    purchase(ACME, '2025-05-06T10:00:00', {
      conceptos: [
        { descripcion: 'Mantenimiento', importe: 5000, claveProdServ: '81111500' },
        // A fee not subject to IVA (ObjetoImp 01): DIOT field 52.
        { descripcion: 'Cuota de acceso', importe: 300, claveProdServ: '81111500', objetoImp: '01' },
      ],
    }).xml,
  );
  // Its credit note for 1,000.00 + IVA 160.00 against the goods (concept 84111506, as SAT prescribes).
  await put(
    purchase(ACME, '2025-05-20T10:00:00', {
      tipoDeComprobante: 'E',
      conceptos: [{ descripcion: 'Devolución', importe: 1000, claveProdServ: '84111506' }],
      relacionados: [{ tipoRelacion: '01', uuids: [goods.uuid] }],
    }).xml,
  );
  // José's rent: 20,000.00 + IVA 3,200.00 − ISR 10 % (2,000.00) − IVA 0.106667 × 20,000 = 2,133.34.
  await put(
    purchase(JOSE, '2025-05-01T10:00:00', {
      conceptos: [{ descripcion: 'Renta de oficina', importe: 20000, claveProdServ: '80131500' }],
      retenciones: { isr: 0.1, iva: 0.106667 },
    }).xml,
  );
  // Carlos from Tijuana: 1,000.00 + IVA 8 % 80.00.
  await put(
    purchase(CARLOS, '2025-05-07T10:00:00', {
      lugarExpedicion: '22000',
      ivaRate: 8,
      conceptos: [{ descripcion: 'Monitor', importe: 1000, claveProdServ: '43211900' }],
    }).xml,
  );
  // Two foreign suppliers typed in by hand, paid in May.
  const period = await request(t, 'POST', '/api/periods', {
    headers: bearer(u.token),
    body: { profile_id: profileId, año: 2025, mes: 5 },
  });
  const periodId = (await period.json()).data.id;
  for (const [idFiscal, pais, nombre, subtotal, iva] of [
    ['123456789', 'USA', 'Globex Inc', 1000, 160],
    ['DE987654321', 'DEU', 'Initech GmbH', 500, 0],
  ] as const) {
    const res = await request(t, 'POST', '/api/accrued-expenses', {
      headers: bearer(u.token),
      body: {
        profile_id: profileId,
        period_id: periodId,
        concepto: 'Importación',
        subtotal,
        iva_amount: iva,
        fecha: '2025-05-10',
        type: 'manual',
        is_paid: true,
        payment_date: '2025-05-10',
        nombre_emisor: nombre,
        tipo_tercero: '05',
        id_fiscal: idFiscal,
        pais,
      },
    });
    expect(res.status).toBe(201);
    const { data } = await res.json();
    expect(data).toMatchObject({ tipo_tercero: '05', id_fiscal: idFiscal, pais });
    foreignIds.set(idFiscal, data.id);
  }
});

describe('DIOT rows per supplier and tipo de operación (tax-rules §6)', () => {
  it('one supplier with goods and services in the month has two rows, 02 and 85, the credit note beside the goods', async () => {
    const d = await diotJson();
    const acme = d.proveedores.filter((p: { rfc: string }) => p.rfc === ACME.rfc);
    expect(acme.map((p: { tipo_operacion: string }) => p.tipo_operacion)).toEqual(['02', '85']);
    const [goods, services] = acme;
    // Goods (every concept a product, segment 43): 10,000.00 paid, the note's 1,000.00 returned, kept
    // apart; creditable IVA 1,600.00 − 160.00 = 1,440.00 (LIVA 7: the IVA returned is no longer credited).
    expect(goods.actos.tasa16).toEqual({ pagado: 10000, devoluciones: 1000 });
    expect(goods.iva_acreditable.tasa16).toEqual({ exclusivamente_gravadas: 1600 - 160, con_proporcion: 0 });
    expect(goods.documentos).toBe(1);
    // Services (segment 81, a persona moral, nothing withheld): 85 otros.
    expect(services.actos.tasa16).toEqual({ pagado: 5000, devoluciones: 0 });
    expect(services.iva_acreditable.tasa16.exclusivamente_gravadas).toBe(800);
    expect(services.actos.no_objeto).toEqual({ pagado: 300, devoluciones: 0 });
    expect(d.advertencias.find((a: string) => a.startsWith('Tipo de operación derivado'))).toContain(
      `${ACME.rfc} 02, ${ACME.rfc} 85`,
    );
  });

  it('rent from a persona física with ISR 10 % withheld is 06, not 03: the rent class is tested first (LISR 116)', async () => {
    const d = await diotJson();
    const jose = d.proveedores.filter((p: { rfc: string }) => p.rfc === JOSE.rfc);
    expect(jose).toHaveLength(1);
    expect(jose[0]).toMatchObject({
      tipo_tercero: '04',
      tipo_operacion: '06',
      tipo_operacion_derivado: true,
      iva_retenido: 2133.34,
      actos: { tasa16: { pagado: 20000, devoluciones: 0 } },
      iva_acreditable: { tasa16: { exclusivamente_gravadas: 3200, con_proporcion: 0 } },
    });
  });

  it('8 % from a Tijuana postal code goes to the región fronteriza norte', async () => {
    const d = await diotJson();
    const carlos = d.proveedores.find((p: { rfc: string }) => p.rfc === CARLOS.rfc);
    // Persona física in 612 selling products only (segment 43), nothing withheld: 02.
    expect(carlos.tipo_operacion).toBe('02');
    expect(carlos.actos.norte).toEqual({ pagado: 1000, devoluciones: 0 });
    expect(carlos.actos.sur).toEqual({ pagado: 0, devoluciones: 0 });
    expect(carlos.iva_acreditable.norte.exclusivamente_gravadas).toBe(80);
  });

  it('foreign suppliers are one row each (05, their tax id and country), their IVA in the import columns', async () => {
    const d = await diotJson();
    const foreign = d.proveedores.filter((p: { tipo_tercero: string }) => p.tipo_tercero === '05');
    expect(
      foreign.map((p: { id_fiscal: string; pais: string; rfc: string }) => [p.id_fiscal, p.pais, p.rfc]),
    ).toEqual([
      ['123456789', 'USA', 'XEXX010101000'],
      ['DE987654321', 'DEU', 'XEXX010101000'],
    ]);
    const [globex, initech] = foreign;
    // Derived 07 (importación): a tangible import; typed in without a CFDI or pedimento, its IVA is
    // not creditable (LIVA 5-II) and goes to "no cumple requisitos".
    expect(globex.tipo_operacion).toBe('07');
    expect(globex.actos.importacion_tangibles).toEqual({ pagado: 1000, devoluciones: 0 });
    expect(globex.iva_no_acreditable.importacion_tangibles.no_cumple_requisitos).toBe(160);
    expect(globex.iva_acreditable.importacion_tangibles.exclusivamente_gravadas).toBe(0);
    expect(initech.actos.tasa_0).toEqual({ pagado: 500, devoluciones: 0 });
    expect(d.advertencias).toContain(
      'IVA no acreditable en la columna "no cumple requisitos": sin CFDI (LIVA art. 5-II): registre su uuid_cfdi, su pedimento o si es un servicio digital extranjero (LIVA art. 18-D)',
    );
  });

  it('a persona moral always files: no relief advertencia', async () => {
    const d = await diotJson();
    expect(d.advertencias.some((a: string) => a.includes('releva'))).toBe(false);
  });
});

describe('DIOT format=txt: SAT’s batch layout (54 fields, docs/diot.md)', () => {
  it('every line has 54 fields and each figure Folio fills sits at its position, in whole pesos (CFF 20)', async () => {
    const lines = await diotLines();
    expect(lines.every((l) => l.length === 54)).toBe(true);
    expect(lines).toEqual([
      // ACME 02: 16 % paid (12) and returned (13) apart; creditable IVA exclusively taxed at 16 % (22).
      line({ 1: '04', 2: '02', 3: ACME.rfc, 12: '10000', 13: '1000', 22: String(1600 - 160), 54: '01' }),
      // ACME 85: and the 300.00 not subject to IVA (52).
      line({ 1: '04', 2: '85', 3: ACME.rfc, 12: '5000', 22: '800', 52: '300', 54: '01' }),
      // Carlos: región fronteriza norte (8) and its creditable IVA (18).
      line({ 1: '04', 2: '02', 3: CARLOS.rfc, 8: '1000', 18: '80', 54: '01' }),
      // José: IVA withheld 2,133.34 → 2,133 (CFF 20: 1 to 50 centavos go to the peso below) (48).
      line({ 1: '04', 2: '06', 3: JOSE.rfc, 12: '20000', 22: '3200', 48: '2133', 54: '01' }),
      // 05 foreign, 07: tax id (4), name (5), country (6); import of tangible goods 16 % (14); its IVA
      // not creditable for requirements (41: block 28–47, fourth zone 40–43, second column); no CFDI
      // given tax effects (54: 02).
      line({ 1: '05', 2: '07', 4: '123456789', 5: 'Globex Inc', 6: 'USA', 14: '1000', 41: '160', 54: '02' }),
      // 0 % acts (51).
      line({ 1: '05', 2: '07', 4: 'DE987654321', 5: 'Initech GmbH', 6: 'DEU', 51: '500', 54: '02' }),
    ]);
  });
});

describe('format=txt through the SDK, and where it does not belong', () => {
  it('diotFile({format: "txt"}) downloads the same lines as the route', async () => {
    const fetchApp: typeof fetch = (input, init) => Promise.resolve(t.app.request(new Request(input, init)));
    const sdk = createFolioRestClient({ baseUrl: 'http://folio.test', token: u.token, fetch: fetchApp });
    const file = await sdk.reports.diotFile({ profileId: ME.rfc, año: 2025, mes: 5, format: 'txt' });
    expect(file.filename).toBe(`diot-${ME.rfc}-2025-05.txt`);
    const text = new TextDecoder().decode(await file.bytes());
    expect(
      text
        .split('\n')
        .slice(0, -1)
        .map((l) => l.split('|')),
    ).toEqual(await diotLines());
  });

  it('the monthly report has no txt (400) and the tRPC procedure answers JSON only (400 naming the REST route)', async () => {
    const monthly = await request(
      t,
      'GET',
      `/api/reports/monthly?profileId=${ME.rfc}&año=2025&mes=5&format=txt`,
      {
        headers: bearer(u.token),
      },
    );
    expect(monthly.status).toBe(400);
    await expect(
      trpcClient(t, u.token).reports.diot.query({ profileId, año: 2025, mes: 5, format: 'txt' }),
    ).rejects.toThrow(/REST route/);
  });
});

describe('PUT /api/profiles/{id}/diot/proveedores/{rfc}: the user’s tipo de operación', () => {
  it('an override the instructivo does not allow for the tercero is a 400 and changes nothing', async () => {
    // 06 (rent) is for national suppliers only; a foreign tax id allows 02, 03 and 07.
    const res = await setOverride('123456789', { tipo_operacion: '06' });
    expect(await expectError(res, 400, 'Bad Request')).toMatch(/not allowed for tipo de tercero 05/);
    const d = await diotJson();
    const globex = d.proveedores.find((p: { id_fiscal: string | null }) => p.id_fiscal === '123456789');
    expect(globex.tipo_operacion).toBe('07');
  });

  it('overriding ACME to 03 puts both its operations on one row, not derived, through REST and tRPC', async () => {
    const res = await setOverride(ACME.rfc, { tipo_operacion: '03' });
    expect(res.status).toBe(200);
    expect((await res.json()).data).toMatchObject({
      rfc: ACME.rfc,
      tipo_tercero: '04',
      tipo_operacion: '03',
    });
    const viaTrpc = await trpcClient(t, u.token).reports.diot.query({ profileId, año: 2025, mes: 5 });
    const acme = viaTrpc.data.proveedores.filter((p) => p.rfc === ACME.rfc);
    expect(acme).toHaveLength(1);
    // 10,000.00 + 5,000.00 paid, 1,000.00 returned; IVA 1,600.00 + 800.00 − 160.00.
    expect(acme[0]).toMatchObject({
      tipo_operacion: '03',
      tipo_operacion_derivado: false,
      actos: { tasa16: { pagado: 10000 + 5000, devoluciones: 1000 } },
      iva_acreditable: { tasa16: { exclusivamente_gravadas: 1600 + 800 - 160 } },
    });
    const lines = await diotLines();
    expect(lines.filter((l) => l[2] === ACME.rfc)).toEqual([
      line({ 1: '04', 2: '03', 3: ACME.rfc, 12: '15000', 13: '1000', 22: '2240', 52: '300', 54: '01' }),
    ]);
    // And back to the derived codes through tRPC.
    const back = await trpcClient(t, u.token).diot.setProveedor.mutate({
      profileId,
      rfc: ACME.rfc,
      tipo_operacion: null,
    });
    expect(back.data.tipo_operacion).toBeNull();
    const again = await diotJson();
    expect(
      again.proveedores
        .filter((p: { rfc: string }) => p.rfc === ACME.rfc)
        .map((p: { tipo_operacion: string }) => p.tipo_operacion),
    ).toEqual(['02', '85']);
  });

  it('a foreign supplier without its tax id or country is refused (400) and nothing is stored', async () => {
    const res = await request(t, 'POST', '/api/accrued-expenses', {
      headers: bearer(u.token),
      body: {
        profile_id: profileId,
        period_id: (
          await (
            await request(t, 'GET', `/api/periods?profileId=${profileId}`, { headers: bearer(u.token) })
          ).json()
        ).data[0].id,
        concepto: 'X',
        subtotal: 1,
        fecha: '2025-05-11',
        type: 'manual',
        tipo_tercero: '05',
        pais: 'USA',
      },
    });
    expect(await expectError(res, 400, 'Bad Request')).toMatch(/needs id_fiscal and pais/);
  });

  it('PATCH /api/accrued-expenses/{id} changes a foreign supplier’s country; a tax id without tipo_tercero 05 is a 400 that changes nothing', async () => {
    const id = foreignIds.get('DE987654321');
    const patch = (body: object) =>
      request(t, 'PATCH', `/api/accrued-expenses/${id}`, {
        headers: bearer(u.token),
        body: { is_paid: true, payment_date: '2025-05-10', ...body },
      });
    const bad = await patch({ id_fiscal: 'DE987654321', pais: 'AUT' });
    expect(await expectError(bad, 400, 'Bad Request')).toMatch(/send tipo_tercero 05/);
    const initech = async () =>
      (await diotJson()).proveedores.find((p: { id_fiscal: string | null }) => p.id_fiscal === 'DE987654321');
    expect((await initech()).pais).toBe('DEU');
    const ok = await patch({ tipo_tercero: '05', id_fiscal: 'DE987654321', pais: 'AUT' });
    expect(ok.status).toBe(200);
    expect((await ok.json()).data).toMatchObject({ tipo_tercero: '05', pais: 'AUT' });
    expect((await initech()).pais).toBe('AUT');
  });
});
