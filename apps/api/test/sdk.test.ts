import { invoiceXml, newUuid } from '@folio/cfdi/testing';
import {
  createFolioClient,
  FolioApiError,
  type FolioClientOptions,
  type Invoice,
  TRPCClientError,
} from '@folio/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLIENT, imported, ME, profileOfMe } from './cfdi-helpers';
import { setPlan, signUp, signUpVerified, startTestApp, type TestApp } from './harness';
import { haveSamples, sample } from './samples';

// @folio/sdk against this file's app, in-process (its fetch is the app's).
let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t?.close());

const connect = (credential: Pick<FolioClientOptions, 'token' | 'getToken' | 'apiKey'>) =>
  createFolioClient({
    baseUrl: 'http://folio.test/',
    ...credential,
    headers: { 'x-forwarded-for': `10.9.${Math.floor(Math.random() * 250)}.1` },
    fetch: (input, init) => Promise.resolve(t.app.request(new Request(input, init))),
  });
const sdk = (token?: string | (() => Promise<string | null>)) =>
  connect(typeof token === 'function' ? { getToken: token } : { token });

describe('@folio/sdk', () => {
  it('logs in over REST and uses the token on both transports', async () => {
    const u = await signUp(t);
    const { data: login, response } = await sdk().rest.POST('/auth/login', {
      body: { email: u.email, password: u.password },
    });
    expect(response.status).toBe(200);
    const folio = sdk(login.accessToken);
    const [viaTrpc, viaRest] = await Promise.all([folio.trpc.auth.me.query(), folio.rest.GET('/auth/me')]);
    expect(viaTrpc.user.id).toBe(u.id);
    expect(viaRest.data.user).toEqual(viaTrpc.user);
  });

  it('takes an apiKey instead of a token: both transports act as the key’s owner', async () => {
    const u = await signUpVerified(t);
    await setPlan(t, u.id, 'BASIC');
    const { data: created } = await sdk(u.token).rest.POST('/api-keys', {
      body: { name: 'sdk', scope: 'read' },
    });
    const folio = connect({ apiKey: created.data.key });
    const [viaTrpc, viaRest] = await Promise.all([folio.trpc.auth.me.query(), folio.rest.GET('/auth/me')]);
    expect(viaTrpc.user.id).toBe(u.id);
    expect(viaRest.data.user.id).toBe(u.id);
    // A read key: writes are refused with the API's 403.
    const refused = await folio.rest
      .POST('/profiles', { body: { nombre: 'No', rfc: 'H&E951128469', tipo_persona: 'MORAL' } })
      .catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(FolioApiError);
    expect((refused as FolioApiError).status).toBe(403);
    expect(() => connect({ apiKey: 'not-a-key' })).toThrow(TypeError);
    expect(() => connect({ apiKey: created.data.key, token: u.token })).toThrow(TypeError);
  });

  it('refreshes its Bearer token through POST /api/auth/refresh before expiry, and keeps working', async () => {
    const u = await signUp(t);
    const told: { token: string; expiresAt: Date }[] = [];
    const folio = createFolioClient({
      baseUrl: 'http://folio.test',
      token: u.token,
      // Tokens live 7 days here: asking for 8 days of margin makes the first call refresh.
      refresh: {
        refreshBeforeMs: 8 * 86_400_000,
        onTokenRefresh: (token, expiresAt) => void told.push({ token, expiresAt }),
      },
      fetch: (input, init) => Promise.resolve(t.app.request(new Request(input, init))),
    });
    const [viaTrpc, viaRest] = await Promise.all([folio.trpc.auth.me.query(), folio.rest.GET('/auth/me')]);
    expect(viaTrpc.user.id).toBe(u.id);
    expect(viaRest.data.user.id).toBe(u.id);
    expect(told).toHaveLength(1);
    expect(told[0]!.expiresAt.getTime()).toBeGreaterThan(Date.now() + 6 * 86_400_000);
    const me = await sdk(told[0]!.token).rest.GET('/auth/me');
    expect(me.data.user.id).toBe(u.id);
  });

  it('creates a profile (201) and reads it back by id through REST path parameters', async () => {
    const u = await signUp(t);
    const folio = sdk(u.token);
    const { data: created, response } = await folio.rest.POST('/profiles', {
      body: { nombre: 'Herrería', rfc: 'H&E951128469', tipo_persona: 'MORAL' },
    });
    expect(response.status).toBe(201);
    const { data: again } = await folio.rest.GET('/profiles/{profileId}', {
      params: { path: { profileId: created.data.id } },
    });
    expect(again.data).toEqual(created.data);
    const viaTrpc = await folio.trpc.profiles.get.query({ profileId: created.data.id });
    expect(viaTrpc.data.rfc).toBe('H&E951128469');
  });

  it('throws FolioApiError with the label, message and the request id the server logged', async () => {
    const u = await signUp(t);
    const folio = sdk(u.token);
    const err = await folio.rest
      .POST('/profiles', { body: { nombre: 'x', rfc: 'H&E951128469', tipo_persona: 'SA' as 'MORAL' } })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(FolioApiError);
    expect(err).toMatchObject({
      status: 422,
      error: 'Validation Error',
      code: 'validation_failed',
      fields: [{ path: 'tipo_persona', message: expect.any(String) }],
    });
    expect((err as FolioApiError).message).toContain('tipo_persona');
    expect((err as FolioApiError).requestId).toMatch(/^[0-9a-f-]{36}$/);

    const anonymous = await sdk()
      .rest.GET('/invoices')
      .catch((e: unknown) => e);
    expect(anonymous).toMatchObject({ status: 401, error: 'Unauthorized', code: 'unauthorized' });
    const trpc = await sdk()
      .trpc.invoices.list.query({})
      .catch((e: unknown) => e);
    expect(trpc).toBeInstanceOf(TRPCClientError);
  });

  it('asks getToken before every request', async () => {
    const u = await signUp(t);
    let calls = 0;
    const folio = sdk(async () => {
      calls++;
      return u.token;
    });
    await folio.rest.GET('/profiles');
    await folio.trpc.profiles.list.query();
    expect(calls).toBe(2);
  });

  it.runIf(haveSamples)(
    'uploads CFDI and lists the invoice with the same shape on REST and tRPC',
    async () => {
      const u = await signUp(t);
      const folio = sdk(u.token);
      const { data: p } = await folio.rest.POST('/profiles', {
        body: { nombre: 'Herrería', rfc: 'H&E951128469', tipo_persona: 'MORAL', regimenes_fiscales: ['601'] },
      });
      const report = await folio.rest.uploadCfdi(p.data.id, [
        { name: 'ppd.xml', content: sample('cfdi40-ingreso-ppd-rfc-ampersand.xml') },
        { name: 'legacy.xml', content: new Blob([sample('cfdi32-legacy-real.xml')]) },
      ]);
      expect(report).toMatchObject({ imported: 1, rejected: 1 });
      const query = { profileId: p.data.id, año: 2020, mes: 1 };
      const { data: rest } = await folio.rest.GET('/invoices', { params: { query } });
      const trpc = await folio.trpc.invoices.list.query(query);
      expect(rest).toEqual(trpc);
      const invoice: Invoice | undefined = rest.data[0];
      expect(invoice).toMatchObject({ tipo: 'PPD', estadoPago: { estado: 'NO_PAGADO' } });
      const { data: xml } = await folio.rest.GET('/invoices/{id}/xml', {
        params: { path: { id: invoice!.id } },
        parseAs: 'text',
      });
      expect(xml).toContain('H&amp;E951128469');
    },
  );

  it("uploads SAT's metadata, lists the missing XML and marks a CFDI back vigente, typed end to end", async () => {
    const { u, p } = await profileOfMe(t);
    const a = newUuid();
    const id = await imported(
      t,
      u,
      p.id,
      invoiceXml({ uuid: a, emisor: ME, receptor: CLIENT, fecha: '2025-05-05T10:00:00' }),
    );
    const folio = sdk(u.token);
    const m = newUuid();
    const text = `Uuid~Estatus~FechaCancelacion~FechaEmision\r\n${a}~1~~2025-05-05 10:00:00\r\n${m}~1~~2025-05-09 10:00:00\r\n`;
    const { data: up } = await folio.rest.uploadSatMetadata(p.id, [{ name: 'metadatos.txt', content: text }]);
    expect(up.data).toMatchObject({ updated: 1, missing_xml: 1 });
    const { data: missing } = await folio.rest.GET('/profiles/{profileId}/sat-metadata/missing', {
      params: { path: { profileId: p.id }, query: { año: 2025, mes: 5 } },
    });
    expect(missing.data.map((r) => r.uuid)).toEqual([m]);
    const { data: marked } = await folio.rest.PATCH('/invoices/{id}', {
      params: { path: { id } },
      body: { estatus_sat: 'cancelado', fecha_cancelacion: '2025-05-30' },
    });
    expect(marked.data).toMatchObject({ estatus_sat: 'cancelado', estatus_fuente: 'usuario' });
  });

  it('logs in by itself with email and password (base URL ending in /api) and pages through every invoice', async () => {
    const { u, p } = await profileOfMe(t);
    const uuids = Array.from({ length: 5 }, () => newUuid());
    for (const [i, uuid] of uuids.entries()) {
      await imported(
        t,
        u,
        p.id,
        invoiceXml({ uuid, emisor: ME, receptor: CLIENT, fecha: `2025-06-0${i + 1}T10:00:00` }),
      );
    }
    const folio = createFolioClient({
      baseUrl: 'http://folio.test/api/',
      email: u.email,
      password: u.password,
      retries: 2,
      fetch: (input, init) => Promise.resolve(t.app.request(new Request(input, init))),
    });
    const seen: string[] = [];
    for await (const invoice of folio.rest.paginate('/invoices', {
      params: { query: { profileId: p.id, año: 2025, limit: 2 } },
    })) {
      seen.push(invoice.uuid);
    }
    // 5 invoices at 2 a page: pages 1, 2 and 3, each invoice once.
    expect(seen.toSorted()).toEqual(uuids.toSorted());
    expect((await folio.trpc.auth.me.query()).user.id).toBe(u.id);
  });
});
