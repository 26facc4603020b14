/** @jsxRuntime automatic @jsxImportSource react */
import { Text } from '@react-email/text';
import { MailLayout, muted } from './layout';

/** SAT's answer only: the e.firma itself never leaves its encrypted row. */
export interface EfirmaRefusedProps {
  rfc: string;
  /** SAT's code: 304 (certificate revoked or expired) or 305 (certificate not valid for the service). */
  codigo: number;
}

export function EfirmaRefused({ rfc, codigo }: EfirmaRefusedProps) {
  return (
    <MailLayout preview="SAT rechazó tu e.firma">
      <Text>
        El SAT rechazó la e.firma del RFC {rfc} que guardaste en Folio (código {codigo}): puede estar revocada
        o vencida.
      </Text>
      <Text>
        Las sincronizaciones con el SAT de ese RFC se detienen hasta que subas la vigente, con «folio sat
        efirma --cer ARCHIVO.cer --key ARCHIVO.key» o en PUT /api/profiles/{'{id}'}/efirma; reemplaza a la
        anterior.
      </Text>
      <Text style={muted}>Te enviamos este aviso una sola vez por cada e.firma rechazada.</Text>
    </MailLayout>
  );
}
