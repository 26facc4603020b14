import { newUuid, type Party } from '@folio/cfdi/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLIENT, imported, importOne, invoice, profileOfMe, sale } from './cfdi-setup';
import { caller, startTestApi, type TestApi } from './harness';

// What a profile's validaciones_habilitadas change in the validation of an imported CFDI, through the caller.

let t: TestApi;
beforeAll(async () => {
  t = await startTestApi();
});
afterAll(() => t.close());

describe('validation flags', () => {
  const other: Party = { rfc: 'ABC970701NN4', nombre: 'Comercial ABC', regimen: '626' };
  const validacionOf = async (setup: Awaited<ReturnType<typeof profileOfMe>>, xml: string) =>
    (await invoice(t, setup.u, await imported(t, setup.u, setup.p.id, xml))).validacion;

  it('a regime the profile does not have is a warning by default, an error (stored, valido false) when blocking', async () => {
    const w = await validacionOf(await profileOfMe(t), sale(newUuid(), { emisor: other }));
    expect(w).toMatchObject({ regimenFiscalVerificado: false, valido: true, errores: [] });
    expect(w.advertencias.join(' ')).toMatch(/626/);
    const block = await profileOfMe(t, 'PRO', { bloquearSiRegimenNoCoincide: true });
    const b = await validacionOf(block, sale(newUuid(), { emisor: other }));
    expect(b).toMatchObject({ regimenFiscalVerificado: false, valido: false });
    expect(b.errores.join(' ')).toMatch(/626/);
  });

  it('checks nothing about the regime when validarRegimenFiscal is off', async () => {
    const v = await validacionOf(
      await profileOfMe(t, 'PRO', { validarRegimenFiscal: false }),
      sale(newUuid(), { emisor: other }),
    );
    expect(v).toMatchObject({ regimenFiscalVerificado: false, errores: [], valido: true });
    expect(v.advertencias.join(' ')).not.toMatch(/no está entre los del perfil/);
  });

  it('verifies the RFC only while validarRFCIngresos / validarRFCGastos are on', async () => {
    expect((await validacionOf(await profileOfMe(t), sale(newUuid()))).rfcVerificado).toBe(true);
    const off = await profileOfMe(t, 'PRO', { validarRFCIngresos: false });
    expect((await validacionOf(off, sale(newUuid()))).rfcVerificado).toBe(false);
  });

  it('flags a UUID another profile of the account holds only while validarUUIDDuplicado is on', async () => {
    for (const [flag, expected] of [
      [true, true],
      [false, false],
    ] as const) {
      const { u, p } = await profileOfMe(t, 'PRO', { validarUUIDDuplicado: flag });
      const { data: client } = await caller(t, u.token).profiles.create({
        nombre: 'Cliente',
        rfc: CLIENT.rfc,
        tipo_persona: 'FISICA',
        regimenes_fiscales: ['612'],
        validaciones_habilitadas: { validarUUIDDuplicado: flag },
      });
      const uuid = newUuid();
      await imported(t, u, p.id, sale(uuid));
      const file = await importOne(t, u, client.id, sale(uuid));
      expect(file).toMatchObject({ status: 'imported', kind: 'expense' });
      expect((await invoice(t, u, file.id!)).validacion.uuidDuplicado).toBe(expected);
    }
  });
});
