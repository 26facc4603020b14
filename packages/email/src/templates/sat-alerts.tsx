/** @jsxRuntime automatic @jsxImportSource react */
import type { SatAlertCambio, SatCodeChange } from '@folio/db/queries/sat-alerts';
import { Text } from '@react-email/text';
import { MailLayout, muted } from './layout';

export type SatAlertLine = SatCodeChange;

/**
 * Only catalog facts go in (code, field, old and new value as the SAT file has them): never the
 * user's notes, which are their own words.
 */
export interface SatAlertsProps {
  alerts: SatAlertLine[];
}

/** Lines shown; the rest are counted ("y 12 cambios más") and all are at GET /api/sat/alerts. */
export const MAX_ALERT_LINES = 50;

const FIELD: Record<Exclude<SatAlertCambio, 'eliminada'>, string> = {
  fin_vigencia: 'Fecha de fin de vigencia',
  iva: 'IVA trasladado',
  ieps: 'IEPS trasladado',
  complemento: 'Complemento que debe incluir',
  descripcion: 'Descripción',
};

const shown = (v: string | null) => (v === null ? '(vacío)' : `«${v}»`);

export function describeAlert(a: SatAlertLine): string {
  if (a.cambio === 'eliminada')
    return `${a.clave}: ya no está en el catálogo del SAT (era ${shown(a.antes)}).`;
  return `${a.clave}: ${FIELD[a.cambio]} cambió de ${shown(a.antes)} a ${shown(a.despues)}.`;
}

export function SatAlerts({ alerts }: SatAlertsProps) {
  const extra = alerts.length - MAX_ALERT_LINES;
  return (
    <MailLayout preview="El SAT cambió claves que tienes en favoritos">
      <Text>
        Actualizamos el catálogo de productos y servicios del SAT (c_ClaveProdServ) y cambiaron claves que
        tienes en favoritos:
      </Text>
      {alerts.slice(0, MAX_ALERT_LINES).map((a) => (
        <Text key={`${a.clave}-${a.cambio}`}>{describeAlert(a)}</Text>
      ))}
      {extra > 0 && <Text>y {extra === 1 ? '1 cambio más' : `${extra} cambios más`}.</Text>}
      <Text>
        Revisa tus facturas antes de volver a usarlas. Todas tus alertas están en la API de Folio: GET
        /api/sat/alerts.
      </Text>
      <Text style={muted}>Recibes este correo porque tu plan incluye alertas del catálogo del SAT.</Text>
    </MailLayout>
  );
}
