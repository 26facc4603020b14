// tax-rules §8: the platforms' withholdings (CFDI de Retenciones 2.0) are not imported; the monthly
// report says so when the month's income has a platform-like client (compute/platforms.ts).

import { invoiceXml, newUuid, type Party } from '@folio/cfdi/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { imported } from './cfdi-helpers';
import {
  bearer,
  caller,
  createProfile,
  request,
  setPlan,
  signUp,
  startTestApp,
  type TestApp,
} from './harness';

const ANA: Party = { rfc: 'GOMA800101AB6', nombre: 'Ana Gómez', regimen: '612' };
const PLATFORM: Party = { rfc: 'UMT1505279C9', nombre: 'Uber México Technology & Software', regimen: '601' };
/** "Hubert" holds "uber" inside a word: not a platform. */
const HUBERT: Party = { rfc: 'DIHU800101AB1', nombre: 'Hubert Díaz', regimen: '612' };

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t?.close());

const platformNotice = (advertencias: string[]) =>
  advertencias.filter((a) => a.startsWith('ingresos de plataformas digitales'));

describe('the monthly report warns of platform withholdings it cannot see (LISR 113-A, LIVA 18-J)', () => {
  it('a client named as a known platform brings the advertencia once; a name merely containing the letters does not', async () => {
    const u = await signUp(t);
    await setPlan(t, u.id, 'PRO');
    const p = await createProfile(t, u, {
      nombre: ANA.nombre,
      rfc: ANA.rfc,
      tipo_persona: 'FISICA',
      regimenes_fiscales: ['612'],
    });
    const sale = (receptor: Party, fecha: string) =>
      imported(
        t,
        u,
        p.id,
        invoiceXml({
          uuid: newUuid(),
          emisor: ANA,
          receptor,
          fecha,
          conceptos: [{ descripcion: 'Viaje', importe: 1000 }],
        }),
      );
    await sale(PLATFORM, '2025-03-02T10:00:00');
    await sale(PLATFORM, '2025-03-03T10:00:00');
    await sale(HUBERT, '2025-04-02T10:00:00');
    const month = async (mes: number) => {
      const res = await request(t, 'GET', `/api/reports/monthly?profileId=${p.id}&año=2025&mes=${mes}`, {
        headers: bearer(u.token),
      });
      expect(res.status).toBe(200);
      const rest = (await res.json()).data;
      expect((await caller(t, u.token).reports.monthly({ profileId: p.id, año: 2025, mes })).data).toEqual(
        rest,
      );
      return rest.advertencias as string[];
    };
    const march = platformNotice(await month(3));
    expect(march).toHaveLength(1);
    expect(march[0]).toContain(`Uber México Technology & Software (${PLATFORM.rfc})`);
    expect(march[0]).toContain('CFDI de Retenciones 2.0');
    expect(platformNotice(await month(4))).toEqual([]);
  });

  it('a profile in régimen 625 (Plataformas Tecnológicas) is warned whoever its clients are', async () => {
    const u = await signUp(t);
    await setPlan(t, u.id, 'PRO');
    const p = await createProfile(t, u, {
      nombre: ANA.nombre,
      rfc: ANA.rfc,
      tipo_persona: 'FISICA',
      regimenes_fiscales: ['625'],
    });
    await imported(
      t,
      u,
      p.id,
      invoiceXml({
        uuid: newUuid(),
        emisor: { ...ANA, regimen: '625' },
        receptor: HUBERT,
        fecha: '2025-04-02T10:00:00',
        conceptos: [{ descripcion: 'Viaje', importe: 1000 }],
      }),
    );
    const res = await request(t, 'GET', `/api/reports/monthly?profileId=${p.id}&año=2025&mes=4`, {
      headers: bearer(u.token),
    });
    expect(res.status).toBe(200);
    const notice = platformNotice((await res.json()).data.advertencias);
    expect(notice).toHaveLength(1);
    expect(notice[0]).toContain('(régimen 625)');
  });
});
