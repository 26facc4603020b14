import { randomUUID } from 'node:crypto';
import { findCfdi, insertManualPayment } from '@folio/db/queries/cfdis';
import type { Context } from '../../context';
import { badRequest } from '../../errors';
import { audit } from '../audit';
import { authorizeProfile } from '../profiles/access';
import { toInvoice } from './invoice-dto';
import { refreshPaymentState } from './payment-state';
import { ownedCfdi } from './read-invoices';

export interface ManualPaymentInput {
  fechaPago: string;
  formaPago: string;
  monedaPago: string;
  monto: number;
  numOperacion?: string;
}

/** Records a payment made outside any complement and recomputes the invoice's payment status. */
export async function addManualPayment(
  ctx: Context,
  userId: string,
  cfdiId: string,
  input: ManualPaymentInput,
) {
  const { cfdi } = await ownedCfdi(ctx, userId, cfdiId);
  await authorizeProfile(ctx, userId, cfdi.profileId, 'write');
  if (cfdi.tipo === 'COMPLEMENTO_PAGO') throw badRequest('A payment complement cannot receive payments');
  // A credit note has no payment status: it lowers what its invoice owes.
  if (cfdi.tipoComprobante === 'E') throw badRequest('A credit note cannot receive payments');
  await ctx.db.transaction(async (tx) => {
    await insertManualPayment(tx, {
      id: randomUUID(),
      cfdiId,
      ...input,
      numOperacion: input.numOperacion ?? null,
    });
    await refreshPaymentState(tx, cfdi.profileId, [cfdi.uuid]);
  });
  await audit(ctx, 'invoice.manual_payment', userId, {
    entity: 'cfdi',
    entityId: cfdiId,
    data: { monto: input.monto },
  });
  const updated = await findCfdi(ctx.db, cfdiId);
  return toInvoice(updated!.cfdi, updated!.profile);
}
