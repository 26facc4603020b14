// What the CFDI tests share: the profile's and its counterparts' parties, a PRO user with that
// profile, an import that must succeed, and reading an invoice back.
import { ME } from '@folio/api/testing/cfdi';
import type { Party } from '@folio/cfdi/testing';
import { expect } from 'vitest';
import {
  bearer,
  createProfile,
  request,
  setPlan,
  signUp,
  type TestApp,
  type TestUser,
  uploadXml,
} from './harness';

export { CLIENT, ME } from '@folio/api/testing/cfdi';
export const SUPPLIER: Party = { rfc: 'EKU9003173C9', nombre: 'Escuela Kemper Urgate', regimen: '601' };

/** A user (PRO unless given; null: FREE) with one profile for ME. */
export async function profileOfMe(t: TestApp, plan: 'BASIC' | 'PRO' | null = 'PRO') {
  const u = await signUp(t);
  if (plan) await setPlan(t, u.id, plan);
  const p = await createProfile(t, u, {
    nombre: ME.nombre,
    rfc: ME.rfc,
    tipo_persona: 'MORAL',
    regimenes_fiscales: ['601'],
  });
  return { u, p };
}

/** Uploads one XML, expects it imported, returns its id. */
export async function imported(t: TestApp, u: TestUser, profileId: string, xml: string): Promise<string> {
  const res = await uploadXml(t, u, profileId, xml);
  const body = await res.json();
  expect(res.status, JSON.stringify(body)).toBe(201);
  return body.data.files[0].id as string;
}

/** GET a path as the user, parsed. */
export const getJson = async (t: TestApp, u: TestUser, path: string) =>
  (await request(t, 'GET', path, { headers: bearer(u.token) })).json();
