import { randomUUID } from 'node:crypto';
import { emailOutbox, requestFailures, supportRequests } from '@folio/db/schema';
import { and, desc, eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Context, createContext } from '../src/context';
import { failure } from '../src/failure';
import type { SupportRequestInput } from '../src/schemas/support';
import { createSupportRequest } from '../src/services/support/create-support-request';
import { FAILURES_KEPT, recordFailedRequest } from '../src/services/support/failed-requests';
import { listSupportRequests } from '../src/services/support/list-support-requests';
import {
  caller,
  randomIp,
  rfcFisica,
  setPlan,
  signUp,
  startTestApi,
  type TestApi,
  type TestUser,
} from './harness';

// Support requests by plan (integrations §3), through the services with a request context, on this
// file's database (PGlite, or PostgreSQL under scripts/with-postgres.sh). Mexico City is UTC−6 all
// year (no DST since 2022), so local times are written with that offset; business hours are
// Monday–Friday 09:00–18:00 (rules.test.ts works the calendar through).

let t: TestApi;
beforeAll(async () => {
  t = await startTestApi();
});
afterAll(() => t.close());

const mx = (local: string) => new Date(`${local}:00-06:00`);
const SUPPORT = 'soporte@folio.test'; // the harness's config.supportEmail

const ctx = (): Context =>
  createContext(t.deps, {
    requestId: randomUUID(),
    token: null,
    tokenSource: null,
    method: 'POST',
    origin: null,
    ip: randomIp(),
    idempotencyKey: null,
    resHeaders: new Headers(),
  });

const ask = (u: TestUser, input: SupportRequestInput, at = mx('2026-11-25T10:00')) =>
  createSupportRequest(ctx(), u.id, input, at);
const question = {
  asunto: 'No puedo descargar un PDF',
  mensaje: 'Al descargar la factura A-1\nrecibo un 503.',
};

/** The HTTP answer the error becomes (the one pipeline both transports use). */
async function refusal(p: Promise<unknown>) {
  const err = await p.then(
    () => {
      throw new Error('expected a refusal');
    },
    (e: unknown) => e,
  );
  const { status, body } = failure(err);
  return { status, ...body };
}

const requestsOf = (userId: string) =>
  t.handle.db.select().from(supportRequests).where(eq(supportRequests.userId, userId));
const mailsTo = (to: string) =>
  t.handle.db.select().from(emailOutbox).where(eq(emailOutbox.to, to)).orderBy(desc(emailOutbox.createdAt));
const supportMailFor = async (folio: string) =>
  (await mailsTo(SUPPORT)).filter((m) => m.subject.startsWith(`[${folio}]`));

async function userOn(plan: 'FREE' | 'BASIC' | 'PRO' | 'ENTERPRISE'): Promise<TestUser> {
  const u = await signUp(t);
  if (plan !== 'FREE') await setPlan(t, u.id, plan);
  return u;
}
let rfcs = 0;
async function profileOf(u: TestUser) {
  const rfc = rfcFisica(++rfcs);
  const { data } = await caller(t, u.token).profiles.create({
    nombre: `Persona ${rfcs}`,
    rfc,
    tipo_persona: 'FISICA',
    regimenes_fiscales: ['612'],
  });
  return data;
}

describe('each plan gets its answer', () => {
  it('FREE (support none) is refused with 403 plan_required naming BASIC, and nothing is written', async () => {
    const u = await userOn('FREE');
    expect(await refusal(ask(u, question))).toEqual({
      status: 403,
      error: 'Forbidden',
      code: 'plan_required',
      message:
        'Support requests require the BASIC or PRO plan; upgrade with POST /api/subscription/create-checkout',
    });
    expect(await requestsOf(u.id)).toEqual([]);
    expect(await mailsTo(u.email)).toHaveLength(1); // the verification mail of sign-up, nothing more
  });

  it('BASIC (email) is normal priority, answered within 2 business days: Thursday 10:00 → Monday 10:00', async () => {
    const u = await userOn('BASIC');
    // Thursday 2026-11-26 10:00–18:00 = 8 h, Friday 9 h → 17 h, Monday 09:00 + 1 h = 10:00 (18 business hours).
    const created = await ask(u, question, mx('2026-11-26T10:00'));
    expect(created).toEqual({
      id: expect.any(String),
      folio: expect.stringMatching(/^SOP-2026-\d{6}$/),
      prioridad: 'normal',
      respuesta_esperada_antes_de: mx('2026-11-30T10:00').toISOString(),
    });
    expect(await requestsOf(u.id)).toMatchObject([
      { id: created.id, folio: created.folio, plan: 'BASIC', prioridad: 'normal', asunto: question.asunto },
    ]);
  });

  it('PRO (priority) is high priority within 4 business hours, across a weekend: Friday 16:30 → Monday 11:30', async () => {
    const u = await userOn('PRO');
    // Friday 2026-11-27 16:30–18:00 = 1.5 h; Saturday and Sunday count nothing; Monday 09:00 + 2.5 h = 11:30.
    const created = await ask(u, question, mx('2026-11-27T16:30'));
    expect(created).toMatchObject({
      prioridad: 'alta',
      respuesta_esperada_antes_de: mx('2026-11-30T11:30').toISOString(),
    });
    expect((await requestsOf(u.id))[0]).toMatchObject({ plan: 'PRO', prioridad: 'alta' });
  });

  it('ENTERPRISE has PRO support (priority): a Saturday-noon request is due Monday 13:00', async () => {
    const u = await userOn('ENTERPRISE');
    // Saturday 2026-11-28: the clock starts Monday 2026-11-30 09:00; + 4 h = 13:00.
    expect(await ask(u, question, mx('2026-11-28T12:00'))).toMatchObject({
      prioridad: 'alta',
      respuesta_esperada_antes_de: mx('2026-11-30T13:00').toISOString(),
    });
  });

  it('folios are unique and increase, also when requests arrive at once', async () => {
    const u = await userOn('BASIC');
    const a = await ask(u, question);
    const b = await ask(u, question);
    expect(Number(b.folio.slice(-6))).toBeGreaterThan(Number(a.folio.slice(-6)));
    const together = await Promise.all(Array.from({ length: 5 }, () => ask(u, question)));
    expect(new Set(together.map((r) => r.folio)).size).toBe(5);
  });
});

describe('the two mails, through the outbox', () => {
  it('the team gets plan, profiles, the question and the failed request ids; the user a Spanish acknowledgement', async () => {
    const u = await userOn('PRO');
    const [p1, p2] = [await profileOf(u), await profileOf(u)];
    // Two failed calls of the user, recorded by the procedure layer with their request ids.
    for (const id of [randomUUID(), randomUUID()]) {
      await caller(t, u.token)
        .profiles.get({ profileId: id })
        .catch(() => {});
    }
    const failed = await t.handle.db
      .select()
      .from(requestFailures)
      .where(eq(requestFailures.userId, u.id))
      .orderBy(desc(requestFailures.id));
    expect(failed.map((f) => [f.status, f.code])).toEqual([
      [404, 'not_found'],
      [404, 'not_found'],
    ]);

    const created = await ask(u, { ...question, profileId: p2.rfc }, mx('2026-11-27T16:30'));
    const [toTeam] = await supportMailFor(created.folio);
    expect(toTeam).toMatchObject({ kind: 'support-request', status: 'pending' });
    expect(toTeam!.subject).toBe(`[${created.folio}] prioridad alta · PRO: ${question.asunto}`);
    const text = toTeam!.text;
    expect(text).toContain(`Usuario: ${u.email} (id ${u.id}), plan PRO.`);
    expect(text).toContain(`Sobre el perfil: ${p2.rfc} (${p2.nombre})`);
    expect(text).toContain(`Perfiles: ${p1.rfc} (${p1.nombre}), ${p2.rfc} (${p2.nombre})`);
    expect(text).toContain('Al descargar la factura A-1\nrecibo un 503.');
    expect(text).toContain('Últimas solicitudes fallidas (2):');
    for (const f of failed) expect(text).toContain(`404 not_found · X-Request-Id ${f.requestId}`);
    // Newest first, as recorded.
    expect(text.indexOf(failed[0]!.requestId)).toBeLessThan(text.indexOf(failed[1]!.requestId));

    const ack = (await mailsTo(u.email)).find((m) => m.kind === 'support-acknowledgement');
    expect(ack!.subject).toBe(`Recibimos tu solicitud de soporte ${created.folio}`);
    expect(ack!.text).toContain(`Su folio es ${created.folio}`);
    expect(ack!.text).toContain('Prioridad: alta.');
    // 2026-11-30T17:30Z is Monday 11:30 in Mexico City.
    expect(ack!.text).toContain(
      'Te responderemos antes del lunes 30 de noviembre de 2026 a las 11:30 (hora de la Ciudad de México).',
    );
    // The user's own words stay out of the mail to their address.
    expect(ack!.text).not.toContain(question.asunto);
  });

  it('keeps only the newest 20 failed request ids per user, and mails those', async () => {
    const u = await userOn('BASIC');
    const ids: string[] = [];
    for (let i = 0; i < FAILURES_KEPT + 2; i++) {
      const requestId = randomUUID();
      ids.push(requestId);
      const c = createContext(t.deps, { ...ctx().req, requestId });
      await recordFailedRequest(c, u.id, { status: 400, code: 'validation_failed' });
    }
    const kept = await t.handle.db.select().from(requestFailures).where(eq(requestFailures.userId, u.id));
    expect(kept.map((f) => f.requestId).sort()).toEqual(ids.slice(2).sort());
    const created = await ask(u, question);
    const [toTeam] = await supportMailFor(created.folio);
    expect(toTeam!.text).toContain(`Últimas solicitudes fallidas (${FAILURES_KEPT}):`);
    expect(toTeam!.text).not.toContain(ids[0]);
    expect(toTeam!.text).toContain(ids.at(-1));
  });
});

describe('one transaction', () => {
  it('a mail that cannot be written takes the request and the other mail with it', async () => {
    const u = await userOn('PRO');
    // PostgreSQL text cannot hold U+0000: the team mail's insert fails after the request's insert.
    const broken = createContext(
      { ...t.deps, config: { ...t.deps.config, supportEmail: 'sop\u0000@x.mx' } },
      ctx().req,
    );
    const refused = await refusal(createSupportRequest(broken, u.id, question));
    expect(refused.status).toBe(500);
    expect(await requestsOf(u.id)).toEqual([]);
    expect((await mailsTo(u.email)).filter((m) => m.kind === 'support-acknowledgement')).toEqual([]);
  });
});

describe('whose data', () => {
  it('a profile of another user is refused (403) and nothing is written; an unknown one is 404', async () => {
    const [u, other] = [await userOn('PRO'), await userOn('PRO')];
    const theirs = await profileOf(other);
    expect(await refusal(ask(u, { ...question, profileId: theirs.id }))).toMatchObject({
      status: 403,
      code: 'forbidden',
    });
    expect(await refusal(ask(u, { ...question, profileId: randomUUID() }))).toMatchObject({ status: 404 });
    expect(await requestsOf(u.id)).toEqual([]);
    expect((await mailsTo(u.email)).filter((m) => m.kind === 'support-acknowledgement')).toEqual([]);
  });

  it('the listing holds the user’s own requests only, newest first', async () => {
    const [u, other] = [await userOn('BASIC'), await userOn('PRO')];
    const first = await ask(u, { ...question, asunto: 'Primera' }, mx('2026-11-23T10:00'));
    const second = await ask(u, { ...question, asunto: 'Segunda' }, mx('2026-11-24T10:00'));
    await ask(other, { ...question, asunto: 'Ajena' });
    const mine = await listSupportRequests(ctx(), u.id);
    expect(mine.map((r) => [r.id, r.asunto])).toEqual([
      [second.id, 'Segunda'],
      [first.id, 'Primera'],
    ]);
    expect(mine[0]).toEqual({
      ...second,
      asunto: 'Segunda',
      mensaje: question.mensaje,
      profile_id: null,
      plan: 'BASIC',
      created_at: mx('2026-11-24T10:00').toISOString(),
    });
  });
});

describe('invalid input', () => {
  it.each([
    ['an empty asunto', { asunto: '  ', mensaje: 'x' }, 'asunto'],
    ['an asunto over 200 characters', { asunto: 'a'.repeat(201), mensaje: 'x' }, 'asunto'],
    ['an asunto on two lines', { asunto: 'uno\ndos', mensaje: 'x' }, 'asunto'],
    ['a mensaje over 10,000 characters', { asunto: 'a', mensaje: 'm'.repeat(10_001) }, 'mensaje'],
    ['a NUL in the mensaje', { asunto: 'a', mensaje: 'a\u0000b' }, 'mensaje'],
    ['a missing mensaje', { asunto: 'a' }, 'mensaje'],
    ['two different profile ids', { ...question, profileId: 'a', profile_id: 'b' }, 'profile_id'],
  ])('%s is 400 validation_failed naming the field, and nothing is written', async (_, input, field) => {
    const u = await userOn('PRO');
    const refused = await refusal(ask(u, input as SupportRequestInput));
    expect(refused).toMatchObject({ status: 400, error: 'Bad Request', code: 'validation_failed' });
    expect(refused.fields?.map((f) => f.path)).toEqual([field]);
    expect(await requestsOf(u.id)).toEqual([]);
    const support = await t.handle.db
      .select()
      .from(emailOutbox)
      .where(and(eq(emailOutbox.to, u.email), inArray(emailOutbox.kind, ['support-acknowledgement'])));
    expect(support).toEqual([]);
  });

  it('exactly 200 and 10,000 characters are accepted, trimmed', async () => {
    const u = await userOn('BASIC');
    await ask(u, { asunto: ` ${'a'.repeat(200)} `, mensaje: 'm'.repeat(10_000) });
    expect((await requestsOf(u.id))[0]!.asunto).toBe('a'.repeat(200));
  });
});
