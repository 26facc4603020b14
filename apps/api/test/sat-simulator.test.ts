// The SAT simulator (/__dev/sat, integrations.md §1) spoken to by the real @nodecfdi clients through
// Folio's gateway: authentication with a signature check, requests, one "in progress" verification
// before "finished", packages holding exactly the CFDI placed for the RFC, direction and period,
// metadata with cancellations, the status service, refusals of bad signatures and foreign tokens,
// scripted failures and answers.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  cfdiFilesOf,
  createStatusChecker,
  type FetchLike,
  metadataFilesOf,
  SatGateway,
  SatQueryInvalid,
  SatRefused,
  type SatTarget,
  SatUnavailable,
} from '@folio/api/sat-sync';
import { parseSatMetadata } from '@folio/cfdi';
import { invoiceXml, newUuid, type Party } from '@folio/cfdi/testing';
import { CfdiPackageReader, MetadataPackageReader } from '@nodecfdi/sat-ws-descarga-masiva';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { APP_URL, request, startTestApp, type TestApp } from './harness';

const ME: Party = { rfc: 'ABC970701NN4', nombre: 'Comercial ABC', regimen: '601' };
const CLIENT: Party = { rfc: 'COSC8001137NA', nombre: 'Carlos Cortés Soto', regimen: '612' };
const OTHER: Party = { rfc: 'PAPE900101AA1', nombre: 'Papelería Ñandú', regimen: '612' };
const TARGET: SatTarget = { kind: 'simulator', origin: APP_URL };
const MARCH = { desde: '2025-03-01', hasta: '2025-03-31' };

let t: TestApp;
/** The gateway's HTTP goes to the in-process app; a test may rewrite a request on its way. */
const inApp =
  (rewrite: (url: string, init: RequestInit) => RequestInit = (_u, i) => i): FetchLike =>
  (url, init) =>
    Promise.resolve(t.app.request(url, rewrite(url, init)));

interface Efirma {
  cer: string;
  key: string;
  password: string;
}
async function efirmaFor(rfc: string): Promise<Efirma> {
  const res = await request(t, 'POST', '/__dev/sat/efirma', { body: { rfc } });
  expect(res.status).toBe(201);
  return ((await res.json()) as { data: Efirma }).data;
}
const gatewayOf = (e: Efirma, fetch: FetchLike = inApp()) =>
  new SatGateway(
    { cer: Buffer.from(e.cer, 'base64'), key: Buffer.from(e.key, 'base64'), password: e.password },
    { target: TARGET, fetch },
  );

async function place(rfc: string, xml: string, query = '') {
  const res = await t.app.request(`/__dev/sat/${rfc}/cfdi${query}`, { method: 'POST', body: xml });
  expect(res.status).toBe(201);
}

const sale = (uuid: string, fecha: string, from = ME, to = CLIENT) =>
  invoiceXml({ uuid, emisor: from, receptor: to, fecha, metodoPago: 'PUE' });

// What the simulator holds: ME issued two in March (one later cancelled) and one in April; ME
// received one in March and one cancelled in March; CLIENT and OTHER trade without ME.
const issuedMarch = newUuid();
const issuedMarchCancelled = newUuid();
const issuedApril = newUuid();
const receivedMarch = newUuid();
const receivedMarchCancelled = newUuid();
const notMine = newUuid();
let mine: Efirma;

// The library's metadata reader writes each CSV to the temp directory and never deletes it: this
// file's go to a directory of its own, removed at the end.
const systemTmp = process.env.TMPDIR;
const csvTmp = mkdtempSync(join(tmpdir(), 'folio-sat-csv-'));

beforeAll(async () => {
  process.env.TMPDIR = csvTmp;
  t = await startTestApp();
  mine = await efirmaFor(ME.rfc);
  await place(ME.rfc, sale(issuedMarch, '2025-03-10T10:00:00'));
  await place(ME.rfc, sale(issuedMarchCancelled, '2025-03-31T23:00:00'));
  await place(ME.rfc, sale(issuedApril, '2025-04-01T00:00:00'));
  await place(ME.rfc, sale(receivedMarch, '2025-03-01T00:00:00', CLIENT, ME));
  await place(
    ME.rfc,
    sale(receivedMarchCancelled, '2025-03-15T12:00:00', OTHER, ME),
    '?estatus=cancelado&fecha_cancelacion=2025-04-02',
  );
  await place(CLIENT.rfc, sale(notMine, '2025-03-12T09:00:00', OTHER, CLIENT));
  const cancel = await t.app.request(`/__dev/sat/${ME.rfc}/cancel/${issuedMarchCancelled}`, {
    method: 'POST',
  });
  expect(cancel.status).toBe(200);
});
afterAll(async () => {
  await t.close();
  if (systemTmp === undefined) delete process.env.TMPDIR;
  else process.env.TMPDIR = systemTmp;
  rmSync(csvTmp, { recursive: true, force: true });
});

/** Query, verify until SAT says finished (recording each state), download every package. */
async function fullRequest(
  gw: SatGateway,
  direction: 'emitidos' | 'recibidos',
  content: 'cfdi' | 'metadata',
) {
  const q = await gw.query({ direction, content, ...MARCH });
  expect([q.code, q.requestId]).toEqual([5000, expect.any(String)]);
  const states: number[] = [];
  let v = await gw.verify(q.requestId as string);
  states.push(v.estado);
  while (v.estado === 1 || v.estado === 2) {
    v = await gw.verify(q.requestId as string);
    states.push(v.estado);
  }
  const zips = [];
  for (const id of v.packageIds) {
    const d = await gw.download(id);
    expect(d.code).toBe(5000);
    zips.push(d.zip);
  }
  return { states, verify: v, zips };
}

const uuidsInCfdiPackage = async (zip: Buffer) =>
  (await (await CfdiPackageReader.createFromContents(zip.toString('binary'))).cfdisToArray())
    .map((c) => c.uuid.toUpperCase())
    .sort();

describe('SAT simulator through the @nodecfdi client', () => {
  it('authenticates a FIEL it issued: a token that lasts five minutes', async () => {
    const { created, expires } = await gatewayOf(mine).authenticate();
    expect(expires.getTime() - created.getTime()).toBe(5 * 60_000);
  });

  it('emitidos/cfdi: in progress on the first verification, finished on the second; the package holds exactly the CFDI issued by the RFC in the period (cancelled included: EstadoComprobante Todos)', async () => {
    const { states, verify, zips } = await fullRequest(gatewayOf(mine), 'emitidos', 'cfdi');
    expect(states).toEqual([2, 3]);
    expect(verify.numeroCfdis).toBe(2);
    expect(zips).toHaveLength(1);
    expect(await uuidsInCfdiPackage(zips[0] as Buffer)).toEqual([issuedMarch, issuedMarchCancelled].sort());
  });

  it('recibidos/cfdi is asked with EstadoComprobante Vigente (SAT refuses otherwise): the package lacks the cancelled one', async () => {
    const { zips } = await fullRequest(gatewayOf(mine), 'recibidos', 'cfdi');
    expect(await uuidsInCfdiPackage(zips[0] as Buffer)).toEqual([receivedMarch]);
  });

  it('recibidos/metadata: one line per received CFDI of the period, the cancelled one Estatus 0 with its date', async () => {
    const { zips } = await fullRequest(gatewayOf(mine), 'recibidos', 'metadata');
    const reader = await MetadataPackageReader.createFromContents((zips[0] as Buffer).toString('binary'));
    const lines = (await reader.metadataToArray()).map((m) => [
      m.get('uuid'),
      m.get('estatus'),
      m.get('fechaCancelacion'),
    ]);
    expect(lines.sort()).toEqual(
      [
        [receivedMarch, '1', ''],
        [receivedMarchCancelled, '0', '2025-04-02 00:00:00'],
      ].sort(),
    );
  });

  it('emitidos/metadata lists the CFDI cancelled on the simulator as cancelado (Estatus 0)', async () => {
    const { zips } = await fullRequest(gatewayOf(mine), 'emitidos', 'metadata');
    const reader = await MetadataPackageReader.createFromContents((zips[0] as Buffer).toString('binary'));
    const byUuid = Object.fromEntries(
      (await reader.metadataToArray()).map((m) => [m.get('uuid'), m.get('estatus')]),
    );
    expect(byUuid).toEqual({ [issuedMarch]: '1', [issuedMarchCancelled]: '0' });
  });

  it('packages as the files the import path takes: CFDI as UUID.xml, metadata files that Folio’s metadata parser reads', async () => {
    const cfdi = await fullRequest(gatewayOf(mine), 'emitidos', 'cfdi');
    const files = [];
    for await (const f of cfdiFilesOf(cfdi.zips[0] as Buffer)) files.push(f);
    expect(files.map((f) => f.name).sort()).toEqual(
      [`${issuedMarch}.xml`, `${issuedMarchCancelled}.xml`].sort(),
    );
    expect(files.find((f) => f.name === `${issuedMarch}.xml`)?.content).toBe(
      sale(issuedMarch, '2025-03-10T10:00:00'),
    );

    const meta = await fullRequest(gatewayOf(mine), 'emitidos', 'metadata');
    const texts = [];
    for await (const f of metadataFilesOf(meta.zips[0] as Buffer)) texts.push(f);
    expect(texts).toHaveLength(1);
    const parsed = parseSatMetadata(texts[0]?.content ?? '');
    expect('lines' in parsed && parsed.lines.length).toBe(2);
  });

  it('a period with nothing in it: SAT rejects the request with 5004 (estado 5)', async () => {
    const gw = gatewayOf(mine);
    const q = await gw.query({
      direction: 'emitidos',
      content: 'cfdi',
      desde: '2025-01-01',
      hasta: '2025-01-31',
    });
    await gw.verify(q.requestId as string);
    expect(await gw.verify(q.requestId as string)).toMatchObject({
      estado: 5,
      codigoEstado: 5004,
      packageIds: [],
    });
  });

  it('a package downloads at most twice: the third answers 5008', async () => {
    const gw = gatewayOf(mine);
    const { verify } = await fullRequest(gw, 'emitidos', 'cfdi');
    const id = verify.packageIds[0] as string;
    expect((await gw.download(id)).code).toBe(5000);
    expect(await gw.download(id)).toMatchObject({ code: 5008, zip: Buffer.alloc(0) });
  });

  it('QueryParameters are validated before sending: start after end, or more than six years back, is refused', async () => {
    const gw = gatewayOf(mine);
    await expect(
      gw.query({ direction: 'emitidos', content: 'cfdi', desde: '2025-03-02', hasta: '2025-03-01' }),
    ).rejects.toBeInstanceOf(SatQueryInvalid);
    await expect(
      gw.query({ direction: 'emitidos', content: 'cfdi', desde: '2001-01-01', hasta: '2001-01-31' }),
    ).rejects.toBeInstanceOf(SatQueryInvalid);
  });
});

describe('what the simulator refuses, as SAT does', () => {
  it('an authentication whose signed Timestamp was altered: a SOAP fault (SatRefused)', async () => {
    const tamper = inApp((url, init) =>
      url.endsWith('/ws/autenticacion')
        ? {
            ...init,
            body: String(init.body).replace(/<u:Expires>[^<]+/, '<u:Expires>2099-01-01T00:00:00.000Z'),
          }
        : init,
    );
    await expect(gatewayOf(mine, tamper).authenticate()).rejects.toBeInstanceOf(SatRefused);
  });

  it('a request altered after signing: CodEstatus 302 (bad seal)', async () => {
    const tamper = inApp((url, init) =>
      url.endsWith('/ws/solicitud')
        ? {
            ...init,
            body: String(init.body).replace(
              'FechaFinal="2025-03-31T23:59:59"',
              'FechaFinal="2025-12-31T23:59:59"',
            ),
          }
        : init,
    );
    expect(
      await gatewayOf(mine, tamper).query({ direction: 'emitidos', content: 'cfdi', ...MARCH }),
    ).toMatchObject({ code: 302, requestId: null });
  });

  it('a SignatureValue that is not the certificate’s signature of SignedInfo: CodEstatus 302', async () => {
    const flip = (b64: string) => (b64[0] === 'A' ? 'B' : 'A') + b64.slice(1);
    const tamper = inApp((url, init) =>
      url.endsWith('/ws/solicitud')
        ? {
            ...init,
            body: String(init.body).replace(
              /<SignatureValue>([^<]+)/,
              (_m, v: string) => `<SignatureValue>${flip(v)}`,
            ),
          }
        : init,
    );
    expect(
      await gatewayOf(mine, tamper).query({ direction: 'emitidos', content: 'cfdi', ...MARCH }),
    ).toMatchObject({ code: 302 });
  });

  it('a CSD instead of a FIEL cannot authenticate', async () => {
    const fixture = (name: string) =>
      readFileSync(new URL(`../../../packages/api/test/fixtures/efirma/${name}`, import.meta.url));
    const csd = new SatGateway(
      { cer: fixture('csd-EKU9003173C9.cer'), key: fixture('csd-EKU9003173C9.key'), password: '12345678a' },
      { target: TARGET, fetch: inApp() },
    );
    await expect(csd.authenticate()).rejects.toThrow(/not an e\.firma|expired/);
  });

  it('another RFC’s token (a token the simulator issued, to someone else): 300 Usuario No Válido; an unknown token: HTTP 401', async () => {
    let stolen = '';
    const spy = inApp((url, init) => {
      const auth = (init.headers as Record<string, string>).Authorization;
      if (url.endsWith('/ws/solicitud') && auth) stolen = auth;
      return init;
    });
    await gatewayOf(mine, spy).query({ direction: 'emitidos', content: 'cfdi', ...MARCH });
    expect(stolen).toMatch(/^WRAP access_token="/);
    const theirs = await efirmaFor(CLIENT.rfc);
    const withStolen = inApp((url, init) =>
      url.endsWith('/ws/solicitud')
        ? { ...init, headers: { ...(init.headers as Record<string, string>), Authorization: stolen } }
        : init,
    );
    expect(
      await gatewayOf(theirs, withStolen).query({ direction: 'emitidos', content: 'cfdi', ...MARCH }),
    ).toMatchObject({ code: 300 });
    const forged = inApp((url, init) =>
      url.endsWith('/ws/solicitud')
        ? {
            ...init,
            headers: {
              ...(init.headers as Record<string, string>),
              Authorization: 'WRAP access_token="forged"',
            },
          }
        : init,
    );
    await expect(
      gatewayOf(theirs, forged).query({ direction: 'emitidos', content: 'cfdi', ...MARCH }),
    ).rejects.toBeInstanceOf(SatRefused);
  });
});

describe('scripted failures and answers', () => {
  it('fail-next: the next SAT call fails as an outage (SatUnavailable), the one after succeeds', async () => {
    expect((await request(t, 'POST', '/__dev/sat/fail-next')).status).toBe(200);
    const gw = gatewayOf(mine);
    await expect(gw.authenticate()).rejects.toBeInstanceOf(SatUnavailable);
    await expect(gw.authenticate()).resolves.toMatchObject({ expires: expect.any(Date) });
  });

  it('a network error and a timeout are SatUnavailable (transient)', async () => {
    const down: FetchLike = () => Promise.reject(new TypeError('fetch failed'));
    await expect(gatewayOf(mine, down).authenticate()).rejects.toBeInstanceOf(SatUnavailable);
    const silent: FetchLike = (_url, init) =>
      new Promise((_, reject) => init.signal?.addEventListener('abort', () => reject(init.signal?.reason)));
    const slow = new SatGateway(
      { cer: Buffer.from(mine.cer, 'base64'), key: Buffer.from(mine.key, 'base64'), password: mine.password },
      { target: TARGET, fetch: silent, timeoutMs: 5 },
    );
    await expect(slow.authenticate()).rejects.toBeInstanceOf(SatUnavailable);
  });

  it.each([
    ['5002', 5002],
    ['5005', 5005],
  ])('next-answer %s: the next request answers it', async (code, expected) => {
    await request(t, 'POST', '/__dev/sat/next-answer', { body: { code } });
    const gw = gatewayOf(mine);
    expect(await gw.query({ direction: 'emitidos', content: 'cfdi', ...MARCH })).toMatchObject({
      code: expected,
      requestId: null,
    });
    expect((await gw.query({ direction: 'emitidos', content: 'cfdi', ...MARCH })).code).toBe(5000);
  });

  it.each([
    ['5003', { estado: 5, codigoEstado: 5003 }],
    ['5004', { estado: 5, codigoEstado: 5004 }],
    ['expired', { estado: 6 }],
  ])('next-answer %s: the next verification answers it', async (code, expected) => {
    const gw = gatewayOf(mine);
    const q = await gw.query({ direction: 'emitidos', content: 'cfdi', ...MARCH });
    await request(t, 'POST', '/__dev/sat/next-answer', { body: { code } });
    expect(await gw.verify(q.requestId as string)).toMatchObject(expected);
  });

  it('next-answer 5008: the next download answers it', async () => {
    const gw = gatewayOf(mine);
    const { verify } = await fullRequest(gw, 'emitidos', 'metadata');
    await request(t, 'POST', '/__dev/sat/next-answer', { body: { code: 5008 } });
    expect((await gw.download(verify.packageIds[0] as string)).code).toBe(5008);
  });

  it('next-answer refuses a code it does not script; package-size a size that is not a positive integer', async () => {
    expect((await request(t, 'POST', '/__dev/sat/next-answer', { body: { code: 5010 } })).status).toBe(400);
    for (const size of [0, 1.5, '2']) {
      expect((await request(t, 'POST', '/__dev/sat/package-size', { body: { size } })).status).toBe(400);
    }
  });
});

describe('the status service (unsigned), by the printed expression', () => {
  const xmlOf = async (rfc: string, uuid: string) => {
    const res = await t.app.request(`/__dev/sat/${rfc}`);
    expect((await res.json()).data.some((c: { uuid: string }) => c.uuid === uuid)).toBe(true);
  };

  it('answers Vigente, Cancelado and No Encontrado', async () => {
    await xmlOf(ME.rfc, issuedMarch);
    const check = createStatusChecker({ target: TARGET, fetch: inApp(), minIntervalMs: 0 });
    expect((await check({ xml: sale(issuedMarch, '2025-03-10T10:00:00') })).estado).toBe('vigente');
    expect(await check({ xml: sale(issuedMarchCancelled, '2025-03-31T23:00:00') })).toMatchObject({
      estado: 'cancelado',
      estatusCancelacion: 'Cancelado sin aceptación',
    });
    expect((await check({ xml: sale(newUuid(), '2025-03-10T10:00:00') })).estado).toBe('no_encontrado');
  });

  it('retries a 5xx (fail-next) and then answers', async () => {
    await request(t, 'POST', '/__dev/sat/fail-next');
    const check = createStatusChecker({ target: TARGET, fetch: inApp(), minIntervalMs: 0, retryPauseMs: 0 });
    expect((await check({ xml: sale(issuedMarch, '2025-03-10T10:00:00') })).estado).toBe('vigente');
  });
});

describe('control routes', () => {
  it('lists what it holds for an RFC, issued and received', async () => {
    const res = await t.app.request(`/__dev/sat/${ME.rfc}`);
    const uuids = ((await res.json()) as { data: Array<{ uuid: string }> }).data.map((c) => c.uuid).sort();
    expect(uuids).toEqual(
      [issuedMarch, issuedMarchCancelled, issuedApril, receivedMarch, receivedMarchCancelled].sort(),
    );
  });

  it('refuses a CFDI that is not the RFC’s, an unknown status, and cancelling what it does not hold', async () => {
    const foreign = await t.app.request(`/__dev/sat/${ME.rfc}/cfdi`, {
      method: 'POST',
      body: sale(newUuid(), '2025-03-01T00:00:00', OTHER, CLIENT),
    });
    expect(foreign.status).toBe(400);
    const status = await t.app.request(`/__dev/sat/${ME.rfc}/cfdi?estatus=borrado`, {
      method: 'POST',
      body: sale(newUuid(), '2025-03-01T00:00:00'),
    });
    expect(status.status).toBe(400);
    expect((await t.app.request(`/__dev/sat/${ME.rfc}/cancel/${notMine}`, { method: 'POST' })).status).toBe(
      404,
    );
  });

  it('is not mounted outside development (no dev surfaces)', async () => {
    const prod = await startTestApp({ devSurfaces: false });
    expect((await prod.app.request('/__dev/sat/efirma', { method: 'POST', body: '{}' })).status).toBe(404);
    await prod.close();
  });
});
