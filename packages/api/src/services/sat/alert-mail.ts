import { getEntitlements } from '@folio/billing';
import {
  claimUnnotifiedSatAlerts,
  markSatAlertsNotified,
  type SatCodeChange,
} from '@folio/db/queries/sat-alerts';
import { enqueueEmail, renderSatAlertsEmail } from '@folio/email';
import type { Deps } from '../../context';

/**
 * After a catalog import: one mail per user about the alerts no mail covered yet (this run's, and
 * any a run cut short left), through the outbox, in one transaction with marking them notified. A
 * user whose plan has no alerts now gets no mail; the alerts stay for after an upgrade.
 */
export async function mailSatAlerts(deps: Pick<Deps, 'db' | 'kickEmail'>): Promise<{ mails: number }> {
  const mails = await deps.db.transaction(async (tx) => {
    const pending = await claimUnnotifiedSatAlerts(tx);
    const byUser = new Map<string, { email: string; alerts: SatCodeChange[] }>();
    for (const { alert, email } of pending) {
      const mine = byUser.get(alert.userId) ?? { email, alerts: [] };
      mine.alerts.push(alert);
      byUser.set(alert.userId, mine);
    }
    let sent = 0;
    for (const [userId, { email, alerts }] of byUser) {
      const { limits } = await getEntitlements(tx, userId);
      if (!limits.satHasAlerts) continue;
      await enqueueEmail(tx, { to: email, ...(await renderSatAlertsEmail({ alerts })), kind: 'sat-alerts' });
      sent++;
    }
    await markSatAlertsNotified(
      tx,
      pending.map((p) => p.alert.id),
    );
    return sent;
  });
  if (mails) deps.kickEmail();
  return { mails };
}
