import { efirmasExpiringBy, markExpiryNoticed } from '@folio/db/queries/efirmas';
import { enqueueEmail, renderEfirmaExpiringEmail } from '@folio/email';
import type { Deps } from '../../context';
import { mexicoToday } from '../sat-sync/sync-period';

// integrations.md §1 "Storage details": a mail 30 days before the stored e.firma expires. A daily
// job (`efirma.expiry`) mails the owner of each e.firma whose last valid day is at most 30 calendar
// days away (Mexico City), once per e.firma: the row records the notice in the transaction that
// writes the mail, so a restart or the next day sends nothing more, and a replacement (a new row)
// gets its own.

export const EXPIRY_NOTICE_DAYS = 30;

const DAY_MS = 86_400_000;
const calendarDays = (from: string, to: string) => Math.round((Date.parse(to) - Date.parse(from)) / DAY_MS);

/** Mails the owners of e.firmas expiring within 30 days not told yet; returns how many mails. */
export async function mailExpiringEfirmas(deps: Pick<Deps, 'db' | 'kickEmail'>, now: Date): Promise<number> {
  const today = mexicoToday(now);
  // A day more than the notice's reach finds every candidate; the calendar decides below.
  const candidates = await efirmasExpiringBy(
    deps.db,
    new Date(now.getTime() + (EXPIRY_NOTICE_DAYS + 1) * DAY_MS),
  );
  let mails = 0;
  for (const e of candidates) {
    const dias = calendarDays(today, mexicoToday(e.validoHasta));
    if (dias > EXPIRY_NOTICE_DAYS) continue;
    const mail = await renderEfirmaExpiringEmail({
      rfc: e.rfc,
      numeroCertificado: e.numeroCertificado,
      validoHasta: e.validoHasta,
      dias,
    });
    const sent = await deps.db.transaction(async (tx) => {
      if (!(await markExpiryNoticed(tx, e.id, now))) return false; // another run told them
      await enqueueEmail(tx, { to: e.email, ...mail, kind: 'efirma-expiring' });
      return true;
    });
    if (sent) mails++;
  }
  if (mails) deps.kickEmail();
  return mails;
}
