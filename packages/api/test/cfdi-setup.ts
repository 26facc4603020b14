// What the CFDI rule tests share: the profile's parties, a user with that profile, importing through
// the caller (a file that must be imported), and reading an invoice back.
import { invoiceXml, newUuid, type Party, paymentXml } from '@folio/cfdi/testing';
import { expect } from 'vitest';
import { caller, setPlan, signUp, type TestUser, type WithDb } from './harness';

export const ME: Party = { rfc: 'ABC970701NN4', nombre: 'Comercial ABC', regimen: '601' };
export const CLIENT: Party = { rfc: 'COSC8001137NA', nombre: 'Carlos Cortés Soto', regimen: '612' };

/** A user (PRO unless given) with one profile for ME, its validation flags as given. */
export async function profileOfMe(
  t: WithDb,
  plan: 'BASIC' | 'PRO' | null = 'PRO',
  flags?: Record<string, boolean>,
) {
  const u = await signUp(t);
  if (plan) await setPlan(t, u.id, plan);
  const { data: p } = await caller(t, u.token).profiles.create({
    nombre: ME.nombre,
    rfc: ME.rfc,
    tipo_persona: 'MORAL',
    regimenes_fiscales: ['601'],
    ...(flags ? { validaciones_habilitadas: flags } : {}),
  });
  return { u, p };
}

/** An income PPD invoice of ME to CLIENT. */
export const sale = (uuid: string, extra: Partial<Parameters<typeof invoiceXml>[0]> = {}) =>
  invoiceXml({
    uuid,
    emisor: ME,
    receptor: CLIENT,
    fecha: '2025-03-10T10:00:00',
    metodoPago: 'PPD',
    ...extra,
  });

/** A payment complement paying installments of the invoice `uuid`. */
export const repFor = (
  uuid: string,
  docs: { numParcialidad: number; impSaldoAnt: number; impPagado: number; monedaDR?: string }[],
  fechaPago = '2025-03-20T12:00:00',
) =>
  paymentXml({
    uuid: newUuid(),
    emisor: ME,
    receptor: CLIENT,
    fecha: fechaPago,
    pagos: [{ fechaPago, doctos: docs.map((d) => ({ uuid, ...d })) }],
  });

/** Imports one XML through the caller; returns that file's report line. */
export async function importOne(t: WithDb, u: TestUser, profileId: string, xml: string) {
  const { data } = await caller(t, u.token).cfdi.import({
    profileId,
    files: [{ name: 'f.xml', content: xml }],
  });
  return data.files[0]!;
}

/** Imports one XML that must be imported; returns its id. */
export async function imported(t: WithDb, u: TestUser, profileId: string, xml: string): Promise<string> {
  const file = await importOne(t, u, profileId, xml);
  expect(file.status, JSON.stringify(file)).toBe('imported');
  return file.id!;
}

/** One invoice as its owner reads it. */
export const invoice = (t: WithDb, u: TestUser, id: string) => caller(t, u.token).invoices.get({ id });
