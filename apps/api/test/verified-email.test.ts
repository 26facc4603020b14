import { invoiceXml, newUuid, type Party } from '@folio/cfdi/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkout, countRows } from './billing-helpers';
import {
  bearer,
  caller,
  createProfile,
  expectError,
  request,
  signUp,
  startTestApp,
  type TestApp,
  uploadXml,
  verificationTokenFor,
} from './harness';

/** What an account may do before its email is verified: everything but spending money or minting keys. */

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

const ME: Party = { rfc: 'ABC970701NN4', nombre: 'Comercial ABC', regimen: '601' };
const CLIENT: Party = { rfc: 'COSC8001137NA', nombre: 'Carlos Cortés Soto', regimen: '612' };

describe('an unverified account', () => {
  it('logs in, reads, creates a profile and imports a CFDI; GET /auth/me says email_verified: false', async () => {
    const u = await signUp(t);
    const me = await request(t, 'GET', '/api/auth/me', { headers: bearer(u.token) });
    expect((await me.json()).user.email_verified).toBe(false);
    expect((await request(t, 'GET', '/api/profiles', { headers: bearer(u.token) })).status).toBe(200);
    const p = await createProfile(t, u, {
      nombre: ME.nombre,
      rfc: ME.rfc,
      tipo_persona: 'MORAL',
      regimenes_fiscales: ['601'],
    });
    const xml = invoiceXml({ uuid: newUuid(), emisor: ME, receptor: CLIENT, fecha: '2025-05-01T10:00:00' });
    const imported = await uploadXml(t, u, p.id, xml);
    expect(imported.status, await imported.clone().text()).toBe(201);
    expect((await request(t, 'GET', '/api/invoices', { headers: bearer(u.token) })).status).toBe(200);
  });

  it('may not start a checkout: 403 "Verify your email first", and no provider customer is created', async () => {
    const u = await signUp(t);
    const res = await checkout(t, u, { plan: 'BASIC' });
    expect(await expectError(res, 403, 'Forbidden')).toMatch(/^Verify your email first/);
    expect(await countRows(t, 'billing_customers', u.id)).toBe(0);
  });

  it('is refused the same way through the tRPC caller', async () => {
    const u = await signUp(t);
    await expect(caller(t, u.token).subscription.createCheckout({ plan: 'PRO' })).rejects.toMatchObject({
      code: 'FORBIDDEN',
      message: expect.stringMatching(/^Verify your email first/),
    });
  });
});

describe('verifying the email', () => {
  it('unlocks checkout at once, and GET /auth/me says email_verified: true', async () => {
    const u = await signUp(t);
    expect((await checkout(t, u, { plan: 'BASIC' })).status).toBe(403);
    const token = await verificationTokenFor(t, u.email);
    await request(t, 'POST', '/api/auth/verify-email', { body: { token } });
    const me = await caller(t, u.token).auth.me();
    expect(me.user.email_verified).toBe(true);
    expect((await checkout(t, u, { plan: 'BASIC' })).status).toBe(201);
  });
});
