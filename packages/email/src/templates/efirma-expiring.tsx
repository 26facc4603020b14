/** @jsxRuntime automatic @jsxImportSource react */
import { Text } from '@react-email/text';
import { MailLayout, muted } from './layout';

/** Only the certificate's public facts: the e.firma itself never leaves its encrypted row. */
export interface EfirmaExpiringProps {
  rfc: string;
  numeroCertificado: string;
  validoHasta: Date;
  /** Calendar days (Mexico City) from the mail's day to the expiry's; 0 is today. */
  dias: number;
}

const FECHA = new Intl.DateTimeFormat('es-MX', { dateStyle: 'long', timeZone: 'America/Mexico_City' });

/** "vence hoy", "vence mañana", "vence en 30 días", or "venció" once past. */
export function expiryWords(dias: number): string {
  if (dias < 0) return 'venció';
  if (dias === 0) return 'vence hoy';
  if (dias === 1) return 'vence mañana';
  return `vence en ${dias} días`;
}

export function EfirmaExpiring({ rfc, numeroCertificado, validoHasta, dias }: EfirmaExpiringProps) {
  return (
    <MailLayout preview={`Tu e.firma ${expiryWords(dias)}`}>
      <Text>
        La e.firma del RFC {rfc} que guardaste en Folio (certificado {numeroCertificado}) {expiryWords(dias)}:
        es válida hasta el {FECHA.format(validoHasta)}.
      </Text>
      <Text>
        Cuando venza, Folio dejará de sincronizar tus CFDI con el SAT. Mientras siga vigente puedes renovarla
        en línea en el portal del SAT (CertiSAT Web); ya vencida, el trámite suele requerir cita en el SAT.
      </Text>
      <Text>
        Después sube la nueva en Folio, con «folio sat efirma --cer ARCHIVO.cer --key ARCHIVO.key» o en PUT
        /api/profiles/{'{id}'}/efirma; reemplaza a la anterior.
      </Text>
      <Text style={muted}>Te enviamos este aviso una sola vez por cada e.firma guardada.</Text>
    </MailLayout>
  );
}
