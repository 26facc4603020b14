// POST /api/invoices/{id}/sat-status and /api/expenses/{id}/sat-status: asks SAT's status service
// for one stored CFDI and records its word (fuente `consulta`) through the one status-change path
// (integrations.md §1, docs/sat-status.md). "No Encontrado" records nothing: the CFDI keeps its status.
import { getEntitlements } from '@folio/billing';
import { findCfdi, findCfdiXml } from '@folio/db/queries/cfdis';
import { statusById } from '@folio/db/queries/sat-status';
import { SatUnavailable } from '@folio/sat/plain';
import type { z } from 'zod';
import type { Context } from '../../context';
import { notFound, serviceUnavailable } from '../../errors';
import type { CfdiSatCheck as Answer } from '../../schemas/sat-sync';
import { requireSatSyncPlan } from '../efirma/rules';
import { authorizeProfile } from '../profiles/access';
import { satSettingsOf } from '../sat-sync/settings';
import { writeSatStatus } from './invoice-dto';
import { ownedCfdi } from './read-invoices';
import { applyStatusWords } from './sat-status';

const SIDE_NAME = { income: 'Invoice', expense: 'Expense' } as const;

/** BASIC and PRO: SAT's answer for the caller's CFDI, and its SAT status fields after recording it. */
export async function checkSatStatus(ctx: Context, userId: string, id: string, side: 'income' | 'expense') {
  const { cfdi } = await ownedCfdi(ctx, userId, id);
  if (cfdi.side !== side) throw notFound(`${SIDE_NAME[side]} not found`);
  requireSatSyncPlan((await getEntitlements(ctx.db, userId)).plan);
  await authorizeProfile(ctx, userId, cfdi.profileId, 'write');
  const xml = await findCfdiXml(ctx.db, id);
  if (xml === undefined) throw notFound('Original XML not found');
  const sat = satSettingsOf(ctx.config);
  // The status client (@nodecfdi's XML and expression code) is loaded by the first check, not at
  // start (docs/benchmarks.md#memory).
  const { createStatusChecker } = await import('../sat-sync/status-check');
  const answer = await createStatusChecker({ target: sat.target, fetch: sat.fetch })({ xml }).catch((err) => {
    if (err instanceof SatUnavailable) throw serviceUnavailable(`${err.message}; retry shortly`, 60);
    throw err;
  });
  const estatus = answer.estado;
  if (estatus !== 'no_encontrado') {
    await ctx.db.transaction(async (tx) => {
      const row = (await statusById(tx, id))!;
      await applyStatusWords(
        tx,
        cfdi.profileId,
        [{ row, incoming: { estatus, fuente: 'consulta', fechaCancelacion: null } }],
        new Date(),
      );
    });
  }
  const updated = (await findCfdi(ctx.db, id))!.cfdi;
  const data: z.infer<typeof Answer> = {
    id,
    uuid: updated.uuid,
    estatus_sat: 'desconocido',
    sat: {
      estado: estatus,
      es_cancelable: answer.esCancelable,
      estatus_cancelacion: answer.estatusCancelacion,
    },
  };
  writeSatStatus(data, updated);
  return data;
}
