import { QUOTA_TIME_ZONE } from '@folio/billing';

/** What the dev pages show a person: Spanish words and Mexico City local time, never raw codes. */

const dateTime = new Intl.DateTimeFormat('es-MX', {
  timeZone: QUOTA_TIME_ZONE,
  dateStyle: 'long',
  timeStyle: 'short',
});
const dateOnly = new Intl.DateTimeFormat('es-MX', { timeZone: QUOTA_TIME_ZONE, dateStyle: 'long' });

/** "23 de noviembre de 2026 a las 9:28 a.m." (Mexico City). */
export const fechaHora = (d: Date) => dateTime.format(d);

/** A Stripe timestamp (seconds) as a Mexico City date, or "—". */
export const fecha = (seconds: number | null | undefined) =>
  seconds ? dateOnly.format(new Date(seconds * 1000)) : '—';

const words = (table: Record<string, string>) => (code: string | null | undefined) =>
  (code && table[code]) ?? code ?? '—';

export const estadoCorreo = words({
  pending: 'pendiente',
  sent: 'enviado',
  logged: 'registrado (sin envío)',
  failed: 'falló',
});

export const estadoSuscripcion = words({
  trialing: 'en prueba',
  active: 'activa',
  past_due: 'pago vencido',
  unpaid: 'impaga',
  canceled: 'cancelada',
  incomplete: 'incompleta',
  incomplete_expired: 'incompleta (expiró)',
  paused: 'en pausa',
});

export const estadoSesionPago = words({ open: 'abierta', complete: 'completada', expired: 'expirada' });
