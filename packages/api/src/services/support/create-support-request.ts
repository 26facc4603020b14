import { getEntitlements } from '@folio/billing';
import {
  insertSupportRequest,
  nextSupportFolioNumber,
  supportRequesterFacts,
} from '@folio/db/queries/support';
import { enqueueEmail, renderSupportAcknowledgementEmail, renderSupportRequestEmail } from '@folio/email';
import type { z } from 'zod';
import type { Context } from '../../context';
import { planRequired } from '../../errors';
import { invalidInput } from '../../failure';
import {
  SupportRequestCreate,
  type SupportRequestCreated,
  type SupportRequestInput,
} from '../../schemas/support';
import { audit } from '../audit';
import { authorizeProfile } from '../profiles/access';
import { FAILURES_KEPT } from './failed-requests';
import { describeDeadline, folioOf, SUPPORT_REQUIRED, supportPromise } from './rules';
import { toSupportRequestCreated } from './support-request-dto';

export const SUPPORT_REQUEST_MAIL = 'support-request';
export const SUPPORT_ACK_MAIL = 'support-acknowledgement';

/**
 * A support request (integrations §3): FREE is refused naming the plans with support; BASIC gets
 * normal priority and 2 business days, PRO high priority and 4 business hours (rules.ts). The
 * request, the mail to SUPPORT_EMAIL and the acknowledgement to the user commit together.
 * `now` is the request's moment (the clock, for tests).
 */
export async function createSupportRequest(
  ctx: Context,
  userId: string,
  input: SupportRequestInput,
  now: Date = new Date(),
): Promise<z.infer<typeof SupportRequestCreated>> {
  const parsed = SupportRequestCreate.safeParse(input);
  if (!parsed.success) throw invalidInput(parsed.error);
  const { asunto, mensaje, profileId } = parsed.data;

  const { plan, limits } = await getEntitlements(ctx.db, userId);
  if (limits.support === 'none') throw planRequired(SUPPORT_REQUIRED);
  const about = profileId ? await authorizeProfile(ctx, userId, profileId, 'read') : null;

  const { prioridad, deadline } = supportPromise(limits.support, now);
  const [facts, n] = await Promise.all([
    supportRequesterFacts(ctx.db, userId, FAILURES_KEPT),
    nextSupportFolioNumber(ctx.db),
  ]);
  const { email } = facts;
  if (!email) throw new Error(`support request: user ${userId} not found`);
  const ticket = { folio: folioOf(now, n), prioridad, respuestaAntesDe: describeDeadline(deadline) };
  // Rendered before the transaction, which then only writes.
  const [toTeam, toUser] = await Promise.all([
    renderSupportRequestEmail({
      ...ticket,
      user: { id: userId, email, plan },
      about: about && { rfc: about.rfc, nombre: about.nombre },
      profiles: facts.profiles,
      failures: facts.failures.map((f) => ({ ...f, at: f.createdAt.toISOString() })),
      asunto,
      mensaje,
    }),
    renderSupportAcknowledgementEmail(ticket),
  ]);

  const row = await ctx.db.transaction(async (tx) => {
    const inserted = await insertSupportRequest(tx, {
      id: crypto.randomUUID(),
      folio: ticket.folio,
      userId,
      profileId: about?.id ?? null,
      asunto,
      mensaje,
      prioridad,
      plan,
      respuestaEsperadaAntesDe: deadline,
      createdAt: now,
    });
    await enqueueEmail(tx, { to: ctx.config.supportEmail, ...toTeam, kind: SUPPORT_REQUEST_MAIL });
    await enqueueEmail(tx, { to: email, ...toUser, kind: SUPPORT_ACK_MAIL });
    await audit(ctx, 'support.request', userId, { entity: 'support_request', entityId: inserted.id }, tx);
    return inserted;
  });
  ctx.kickEmail();
  return toSupportRequestCreated(row);
}
