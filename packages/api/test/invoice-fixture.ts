// The invoices the invoice tests read: a PRO user with two profiles (A, a company; B, a person),
// income of both in January and February 2025 (a PPD partly paid by a complement), and one expense
// of A that the invoice list must not show. Imported through the caller.
import { invoiceXml, newUuid, type Party, paymentXml } from '@folio/cfdi/testing';
import { imported } from './cfdi-setup';
import { caller, setPlan, signUp, type WithDb } from './harness';

export const A: Party = { rfc: 'ABC970701NN4', nombre: 'Comercial ABC', regimen: '601' };
export const B: Party = { rfc: 'GOMA800101AB6', nombre: 'Ana Gómez', regimen: '612' };
const ACME: Party = { rfc: 'ACM010101AB3', nombre: 'Acmé Maquinaria', regimen: '601' };
const JOSE: Party = { rfc: 'PEJJ800101AA2', nombre: 'José Pérez Núñez', regimen: '626' };

export async function seedInvoices(t: WithDb) {
  const u = await signUp(t);
  await setPlan(t, u.id, 'PRO');
  const profiles = caller(t, u.token).profiles;
  const profileA = (
    await profiles.create({
      nombre: A.nombre,
      rfc: A.rfc,
      tipo_persona: 'MORAL',
      regimenes_fiscales: ['601'],
    })
  ).data.id;
  const profileB = (
    await profiles.create({
      nombre: B.nombre,
      rfc: B.rfc,
      tipo_persona: 'FISICA',
      regimenes_fiscales: ['612'],
    })
  ).data.id;
  const ppdUuid = newUuid();
  const put = (profileId: string, xml: string) => imported(t, u, profileId, xml);
  const ids = {
    ppdUuid,
    aJan: await put(
      profileA,
      invoiceXml({ uuid: newUuid(), emisor: A, receptor: ACME, fecha: '2025-01-31T23:59:59' }),
    ),
    aFeb: await put(
      profileA,
      invoiceXml({
        uuid: ppdUuid,
        emisor: A,
        receptor: JOSE,
        fecha: '2025-02-01T00:00:01',
        metodoPago: 'PPD',
      }),
    ),
    aRep: await put(
      profileA,
      paymentXml({
        uuid: newUuid(),
        emisor: A,
        receptor: JOSE,
        fecha: '2025-02-15T10:00:00',
        pagos: [
          {
            fechaPago: '2025-02-15T10:00:00',
            doctos: [{ uuid: ppdUuid, numParcialidad: 1, impSaldoAnt: 1160, impPagado: 500 }],
          },
        ],
      }),
    ),
    bFeb: await put(
      profileB,
      invoiceXml({ uuid: newUuid(), emisor: B, receptor: ACME, fecha: '2025-02-10T12:00:00' }),
    ),
    aExpense: await put(
      profileA,
      invoiceXml({ uuid: newUuid(), emisor: ACME, receptor: A, fecha: '2025-02-11T12:00:00' }),
    ),
  };
  return { u, profileA, profileB, ids };
}
