// The user's word on how a CFDI enters the IVA proportion (docs/iva-isr.md): a received CFDI used
// only for taxed acts (credited in full) or only for exempt ones (never), LIVA 5-V; an issued CFDI
// among the acts LIVA 5-C leaves out of the proportion (interest Folio does not recognise, shares,
// currency, fixed assets…).
import { setCfdiIvaTags } from '@folio/db/queries/tax-settings';
import type { Context } from '../../context';
import { notFound } from '../../errors';
import { audit } from '../audit';
import { authorizeProfile } from '../profiles/access';
import { ownedCfdi } from './read-invoices';

async function tag(
  ctx: Context,
  userId: string,
  id: string,
  side: 'income' | 'expense',
  tags: { usoIva?: 'gravado' | 'exento' | null; acto5c?: boolean },
) {
  const { cfdi } = await ownedCfdi(ctx, userId, id);
  if (cfdi.side !== side) throw notFound(side === 'income' ? 'Invoice not found' : 'Expense not found');
  await authorizeProfile(ctx, userId, cfdi.profileId, 'write');
  const row = await setCfdiIvaTags(ctx.db, id, tags);
  if (!row) throw notFound('CFDI not found'); // deleted (with its profile) meanwhile
  await audit(ctx, 'cfdi.iva_tag', userId, { entity: 'cfdi', entityId: id, data: tags });
  return row;
}

/** PUT /api/expenses/{id}/uso-iva: a received CFDI's use (null: both kinds of acts, prorated). */
export async function setUsoIva(
  ctx: Context,
  userId: string,
  id: string,
  usoIva: 'gravado' | 'exento' | null,
) {
  const row = await tag(ctx, userId, id, 'expense', { usoIva });
  return { id: row.id, uso_iva: row.usoIva };
}

/** PUT /api/invoices/{id}/acto-5c: an issued CFDI among the acts of LIVA 5-C, or not. */
export async function setActo5c(ctx: Context, userId: string, id: string, acto5c: boolean) {
  const row = await tag(ctx, userId, id, 'income', { acto5c });
  return { id: row.id, acto_5c: row.acto5c };
}
