import { createHash, randomUUID } from 'node:crypto';
import { getEntitlements } from '@folio/billing';
import { parseRfc, round2 } from '@folio/cfdi';
import { isUniqueViolation } from '@folio/db';
import { insertManualExpense } from '@folio/db/queries/expenses';
import { findAnswer, saveAnswer } from '@folio/db/queries/idempotency';
import { findPeriod } from '@folio/db/queries/periods';
import type { Context } from '../../context';
import { badRequest, conflict, invalidField } from '../../errors';
import type { Expense } from '../../schemas/expense';
import { audit } from '../audit';
import { authorizeProfile } from '../profiles/access';
import { takeMonthlyQuota } from '../quota';
import { toManualExpense } from './expense-dto';
import { type ForeignSupplierInput, foreignSupplierOf } from './foreign-supplier';
import { type IvaSupportInput, ivaSupportOf } from './manual-expense-iva';
import { paymentOf } from './manual-expense-payment';

export interface ManualExpenseInput extends ForeignSupplierInput, IvaSupportInput {
  profileId: string;
  period_id: string;
  concepto: string;
  subtotal: number;
  iva_amount?: number;
  /** Already checked to be a real date; only its date part counts. */
  fecha: string;
  type: 'manual';
  categoria?: string;
  /** Paid, and when (docs/cfdi.md#taxes-by-rate); unpaid by default. */
  is_paid?: boolean;
  payment_date?: string;
  rfc_emisor?: string;
  nombre_emisor?: string;
}

type Answer = { message: string; data: Expense };

const hashOf = (input: ManualExpenseInput) =>
  createHash('sha256')
    .update(JSON.stringify(['accrued-expense', Object.entries(input).sort(([a], [b]) => a.localeCompare(b))]))
    .digest('hex');

/**
 * Records a manual expense into an open period of the profile. With an Idempotency-Key, a retry with
 * the same body gets the first answer and creates nothing; the same key with another body is a 409.
 */
export async function createManualExpense(
  ctx: Context,
  userId: string,
  input: ManualExpenseInput,
): Promise<Answer> {
  const key = ctx.req.idempotencyKey;
  const requestHash = hashOf(input);
  if (key) {
    const replay = await replayOf(ctx, userId, key, requestHash);
    if (replay) return replay;
  }
  // The body's own rules first: a bad body is a 400 whoever sends it.
  const payment = paymentOf(input);
  const supplier = supplierOf(input);
  const ivaSupport = ivaSupportOf(input);
  const profile = await authorizeProfile(ctx, userId, input.profileId, 'write');
  const period = await findPeriod(ctx.db, input.period_id);
  if (!period || period.profileId !== profile.id) {
    throw badRequest('period_id: not an accounting period of this profile', 'period_mismatch');
  }
  if (period.estado === 'CERRADO')
    throw conflict(`The period ${period.anio}-${period.mes} is closed`, 'period_closed');
  const [año, mes] = input.fecha.slice(0, 7).split('-').map(Number) as [number, number];
  if (año !== period.anio || mes !== period.mes) {
    throw badRequest(
      `fecha: ${input.fecha.slice(0, 10)} is outside the period ${period.anio}-${String(period.mes).padStart(2, '0')}`,
      'period_mismatch',
    );
  }
  const ivaAmount = input.iva_amount ?? 0;
  const { limits } = await getEntitlements(ctx.db, userId);
  try {
    const answer = await ctx.db.transaction(async (tx) => {
      await takeMonthlyQuota(ctx, userId, 'manual_expense', limits.expensesPerMonth, 'manual expense', tx);
      const row = await insertManualExpense(tx, {
        id: randomUUID(),
        profileId: profile.id,
        userId,
        periodId: period.id,
        fecha: input.fecha.slice(0, 10),
        mes,
        anio: año,
        subtotal: input.subtotal,
        ivaAmount,
        total: round2(input.subtotal + ivaAmount),
        iva: input.subtotal > 0 ? round2((ivaAmount / input.subtotal) * 100) : 0,
        concepto: input.concepto,
        categoria: input.categoria ?? null,
        ...payment,
        ...supplier,
        ...ivaSupport,
      });
      const result: Answer = {
        message: 'Expense created',
        data: toManualExpense(row),
      };
      if (key) {
        await saveAnswer(tx, userId, key, {
          requestHash,
          status: 201,
          response: result,
          headers: replayedHeaders(ctx.req.resHeaders),
        });
      }
      return result;
    });
    await audit(ctx, 'expense.create', userId, { entity: 'manual_expense', entityId: answer.data.id });
    return answer;
  } catch (err) {
    // The same key raced us to the commit: answer as that request did.
    if (key && isUniqueViolation(err)) {
      const replay = await replayOf(ctx, userId, key, requestHash);
      if (replay) return replay;
    }
    throw err;
  }
}

async function replayOf(
  ctx: Context,
  userId: string,
  key: string,
  requestHash: string,
): Promise<Answer | undefined> {
  const stored = await findAnswer(ctx.db, userId, key);
  if (!stored) return undefined;
  if (stored.requestHash !== requestHash) {
    throw conflict(
      'Idempotency-Key was already used with a different request body',
      'idempotency_key_reused',
    );
  }
  // Exactly the first answer (status, body, its quota headers), marked as a replay.
  ctx.req.status = stored.status;
  for (const [name, value] of Object.entries(stored.headers)) ctx.req.resHeaders.set(name, value);
  ctx.req.resHeaders.set('Idempotent-Replayed', 'true');
  return stored.response as Answer;
}

/** The headers of the first answer a replay repeats: what the quota said then. */
const replayedHeaders = (headers: Headers): Record<string, string> =>
  Object.fromEntries([...headers].filter(([name]) => name.startsWith('x-quota-')));

/**
 * The supplier, when given: an RFC as any CFDI party's (generic ones included), and its name; a
 * foreign one (DIOT tipo de tercero 05) with its tax id and country.
 */
function supplierOf(input: ManualExpenseInput) {
  let rfcEmisor: string | null = null;
  if (input.rfc_emisor !== undefined) {
    const parsed = parseRfc(input.rfc_emisor);
    if ('problem' in parsed)
      throw invalidField(
        'rfc_emisor',
        parsed.problem.message,
        'rfc_invalid',
        `rfc_emisor: ${parsed.problem.message}`,
      );
    rfcEmisor = parsed.rfc;
  }
  return {
    rfcEmisor,
    nombreEmisor: input.nombre_emisor ?? null,
    ...(foreignSupplierOf(input) ?? { tipoTercero: null, idFiscal: null, pais: null }),
  };
}
