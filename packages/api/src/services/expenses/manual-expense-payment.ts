// Whether a manual expense is paid and when: the cash-basis reports count it on its payment date
// (docs/cfdi.md#taxes-by-rate). The same rule for the creation and a later change.
import { findOwnManualExpense, updateManualExpense as storeUpdate } from '@folio/db/queries/expenses';
import type { Context } from '../../context';
import { badRequest, notFound } from '../../errors';
import type { Expense } from '../../schemas/expense';
import { audit } from '../audit';
import { authorizeProfile } from '../profiles/access';
import { toManualExpense } from './expense-dto';
import { type ForeignSupplierInput, foreignSupplierOf } from './foreign-supplier';
import { type IvaSupportInput, ivaSupportOf } from './manual-expense-iva';

export interface PaymentInput {
  is_paid?: boolean;
  /** Already checked to be a real date; only its date part counts. */
  payment_date?: string;
}

/** Paid needs its date; unpaid has none (a date alone would be read as paid by no one). */
export function paymentOf(input: PaymentInput): { isPaid: boolean; paymentDate: string | null } {
  const isPaid = input.is_paid ?? false;
  if (isPaid && !input.payment_date) {
    throw badRequest('payment_date: required when is_paid is true', 'payment_date_required');
  }
  if (!isPaid && input.payment_date) {
    throw badRequest('payment_date: only with is_paid true', 'payment_date_without_payment');
  }
  return { isPaid, paymentDate: isPaid ? input.payment_date!.slice(0, 10) : null };
}

/**
 * Changes the caller's manual expense: paid on a date or unpaid (when `is_paid` is given), what it
 * says about its IVA and, when sent, its DIOT supplier fields; someone else's is as missing (404).
 */
export async function updateManualExpense(
  ctx: Context,
  userId: string,
  id: string,
  input: PaymentInput & IvaSupportInput & ForeignSupplierInput,
): Promise<Expense> {
  const payment = input.is_paid === undefined && input.payment_date === undefined ? {} : paymentOf(input);
  const ivaSupport = ivaSupportOf(input);
  const supplier = foreignSupplierOf(input);
  const changes = { ...payment, ...ivaSupport, ...supplier };
  if (Object.keys(changes).length === 0)
    throw badRequest('Nothing to change: send at least one field', 'empty_update');
  const expense = await findOwnManualExpense(ctx.db, userId, id);
  if (!expense) throw notFound('Expense not found');
  await authorizeProfile(ctx, userId, expense.profileId, 'write');
  const row = await storeUpdate(ctx.db, id, changes);
  if (!row) throw notFound('Expense not found'); // deleted (with its profile) meanwhile
  await audit(ctx, 'expense.update', userId, { entity: 'manual_expense', entityId: id, data: changes });
  return toManualExpense(row);
}
