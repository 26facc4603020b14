import { errorBody } from '@folio/api';
import type { Context, Hono } from 'hono';
import type { AppEnv } from '../../http/types';
import type { NextAnswer, SatSimulator, SoapReply } from './simulator';

// The SAT simulator's HTTP surface under /__dev/sat (never in production): SAT's SOAP services for
// the @nodecfdi clients (SAT_SERVICE=simulator points them here) and JSON control routes to place,
// list and cancel CFDI, issue test e.firmas and script failures (docs/sat-sync.md#simulator).

const BASE = '/__dev/sat';
const RFC = /^[A-ZÑ&]{3,4}\d{6}[A-Z\d]{3}$/;
const DAY = /^\d{4}-\d{2}-\d{2}$/;

const bad = (c: Context<AppEnv>, message: string) => c.json(errorBody(400, message), 400);

type Loaded = typeof import('./simulator') & { sim: SatSimulator };

/**
 * The simulator's routes; its module (node-forge, the XML signature code) and this app's instance
 * are loaded by the first request to it, not at start (docs/benchmarks.md#memory).
 */
export function mountDevSat(app: Hono<AppEnv>): void {
  let loading: Promise<Loaded> | undefined;
  const simulator = () =>
    (loading ??= import('./simulator').then((m) => ({ ...m, sim: new m.SatSimulator() })));
  const soap = (
    path: string,
    handle: (sim: SatSimulator, xml: string, auth: string | undefined) => SoapReply,
  ) =>
    app.post(`${BASE}/ws/${path}`, async (c) => {
      const xml = await c.req.text();
      const { sim } = await simulator();
      // fail-next: the one SAT call that meets it fails as an outage would.
      const reply = sim.takeFailure()
        ? { status: 503, body: '' }
        : handle(sim, xml, c.req.header('authorization'));
      return c.body(reply.body, reply.status as 200, { 'Content-Type': 'text/xml; charset=utf-8' });
    });
  soap('autenticacion', (sim, xml) => sim.authenticate(xml));
  soap('solicitud', (sim, xml, auth) => sim.query(xml, auth));
  soap('verificacion', (sim, xml, auth) => sim.verify(xml, auth));
  soap('descarga', (sim, xml, auth) => sim.download(xml, auth));
  soap('consulta', (sim, xml) => sim.status(xml));

  app.post(`${BASE}/efirma`, async (c) => {
    const body = (await c.req.json().catch(() => ({}))) as { rfc?: unknown };
    const rfc = typeof body.rfc === 'string' ? body.rfc.trim().toUpperCase() : '';
    if (!RFC.test(rfc)) return bad(c, 'Send {"rfc": "…"} with a valid RFC');
    const { sim } = await simulator();
    const { cer, key, password } = sim.issueEfirma(rfc);
    return c.json({ data: { rfc, cer, key, password } }, 201);
  });
  app.post(`${BASE}/fail-next`, async (c) => {
    (await simulator()).sim.failNext();
    return c.json({ data: { fail_next: true } });
  });
  app.post(`${BASE}/next-answer`, async (c) => {
    const body = (await c.req.json().catch(() => ({}))) as { code?: unknown };
    const code = String(body.code ?? '');
    const { sim, NEXT_ANSWERS } = await simulator();
    if (!(NEXT_ANSWERS as readonly string[]).includes(code)) {
      return bad(c, `code must be one of ${NEXT_ANSWERS.join(', ')}`);
    }
    sim.answerNext(code as NextAnswer);
    return c.json({ data: { next_answer: code } });
  });
  app.post(`${BASE}/package-size`, async (c) => {
    const body = (await c.req.json().catch(() => ({}))) as { size?: unknown };
    const size = body.size ?? null;
    if (size !== null && !(Number.isInteger(size) && (size as number) > 0)) {
      return bad(c, 'Send {"size": n} (records a package holds, n ≥ 1) or {"size": null}');
    }
    (await simulator()).sim.setPackageSize(size as number | null);
    return c.json({ data: { package_size: size } });
  });

  app.post(`${BASE}/:rfc/cfdi`, async (c) => {
    const rfc = c.req.param('rfc').toUpperCase();
    const estatus = c.req.query('estatus') ?? 'vigente';
    const fecha = c.req.query('fecha_cancelacion') ?? null;
    if (!RFC.test(rfc)) return bad(c, 'The path needs a valid RFC');
    if (estatus !== 'vigente' && estatus !== 'cancelado') return bad(c, 'estatus is vigente or cancelado');
    if (fecha !== null && (estatus !== 'cancelado' || !DAY.test(fecha))) {
      return bad(c, 'fecha_cancelacion (YYYY-MM-DD) goes with estatus=cancelado');
    }
    const { sim, SimulatorInputError } = await simulator();
    try {
      const placed = sim.place(rfc, new Uint8Array(await c.req.arrayBuffer()), {
        cancelado: estatus === 'cancelado',
        fechaCancelacion: fecha,
      });
      return c.json({ data: placed.map(listed) }, 201);
    } catch (err) {
      if (err instanceof SimulatorInputError) return bad(c, err.message);
      throw err;
    }
  });
  app.get(`${BASE}/:rfc`, async (c) => {
    const { sim } = await simulator();
    return c.json({ data: sim.list(c.req.param('rfc').toUpperCase()).map(listed) });
  });
  app.post(`${BASE}/:rfc/cancel/:uuid`, async (c) => {
    const fecha = c.req.query('fecha_cancelacion') ?? null;
    if (fecha !== null && !DAY.test(fecha)) return bad(c, 'fecha_cancelacion is YYYY-MM-DD');
    const { sim } = await simulator();
    const done = sim.cancel(c.req.param('rfc').toUpperCase(), c.req.param('uuid'), fecha);
    if (!done) return c.json(errorBody(404, 'The simulator holds no such CFDI for this RFC'), 404);
    return c.json({ data: listed(done) });
  });
}

const listed = (h: ReturnType<SatSimulator['list']>[number]) => ({
  uuid: h.uuid,
  rfc_emisor: h.rfcEmisor,
  rfc_receptor: h.rfcReceptor,
  fecha: h.fecha,
  total: h.total,
  tipo: h.efecto,
  estatus: h.estatus,
  fecha_cancelacion: h.fechaCancelacion,
});
