// PATCH /api/invoices/{id} and /api/expenses/{id}: the user's own word on a CFDI's SAT status
// (docs/sat-status.md). It outranks a substitution's presumption and an earlier mark, gives way to
// SAT's word, and never reverts a cancellation SAT reported (409).
import type { CfdiRow } from '@folio/db/queries/cfdis';
import { findCfdi } from '@folio/db/queries/cfdis';
import { statusById } from '@folio/db/queries/sat-status';
import type { Context } from '../../context';
import { badRequest, conflict, notFound } from '../../errors';
import { audit } from '../audit';
import { toExpense } from '../expenses/expense-dto';
import { authorizeProfile } from '../profiles/access';
import { toInvoice } from './invoice-dto';
import { ownedCfdi } from './read-invoices';
import { applyStatusWords } from './sat-status';

export interface StatusMark {
  estatus_sat: 'cancelado' | 'vigente';
  fecha_cancelacion?: string;
}

const SIDE_NAME = { income: 'Invoice', expense: 'Expense' } as const;

/** Marks the caller's CFDI cancelled (on a date) or vigente; answers the CFDI as its listing shows it. */
export async function markSatStatus(
  ctx: Context,
  userId: string,
  id: string,
  side: 'income' | 'expense',
  mark: StatusMark,
) {
  const { cfdi } = await ownedCfdi(ctx, userId, id);
  if (cfdi.side !== side) throw notFound(`${SIDE_NAME[side]} not found`);
  await authorizeProfile(ctx, userId, cfdi.profileId, 'write');
  const cancel = mark.estatus_sat === 'cancelado';
  if (cancel && !mark.fecha_cancelacion)
    throw badRequest('fecha_cancelacion is required to mark a CFDI cancelado', 'fecha_cancelacion_required');
  if (!cancel && mark.fecha_cancelacion)
    throw badRequest('fecha_cancelacion goes only with estatus_sat "cancelado"', 'fecha_cancelacion_refused');
  if (cancel && mark.fecha_cancelacion!.slice(0, 10) < cfdi.fecha.slice(0, 10))
    throw badRequest(
      `fecha_cancelacion is before the CFDI's own date (${cfdi.fecha.slice(0, 10)})`,
      'fecha_cancelacion_early',
    );
  const changed = await ctx.db.transaction(async (tx) => {
    const row = (await statusById(tx, id))!;
    const [decision] = await applyStatusWords(
      tx,
      cfdi.profileId,
      [
        {
          row,
          incoming: {
            estatus: mark.estatus_sat,
            fuente: 'usuario',
            fechaCancelacion: cancel ? mark.fecha_cancelacion! : null,
          },
        },
      ],
      new Date(),
    );
    if (decision?.change === false && decision.reason === 'final') {
      throw conflict(
        `SAT reported this CFDI cancelado${row.fechaCancelacion ? ` on ${row.fechaCancelacion}` : ''} (${row.estatusFuente}): a cancellation SAT reported is final and cannot be changed`,
        'cancelled_by_sat',
      );
    }
    return decision?.change ?? false;
  });
  if (changed) {
    await audit(ctx, 'cfdi.sat_status', userId, {
      entity: 'cfdi',
      entityId: id,
      data: { estatus_sat: mark.estatus_sat },
    });
  }
  const updated = (await findCfdi(ctx.db, id))!;
  const message = changed
    ? `Marked ${mark.estatus_sat}`
    : `Already ${updated.cfdi.estatusSat}; nothing changed`;
  return {
    message,
    data: side === 'income' ? toInvoice(updated.cfdi, updated.profile) : expenseOf(updated.cfdi),
  };
}

/** A received CFDI as the expense listing shows it. */
const expenseOf = (c: CfdiRow) =>
  toExpense({
    ...c,
    origin: 'XML',
    categoria: null,
    uuid: c.uuid,
    tipo: c.tipo,
    tipoComprobante: c.tipoComprobante,
    rfcEmisor: c.rfcEmisor,
    nombreEmisor: c.nombreEmisor,
    rfcReceptor: c.rfcReceptor,
    nombreReceptor: c.nombreReceptor,
    estatusFuente: c.estatusFuente,
  });
