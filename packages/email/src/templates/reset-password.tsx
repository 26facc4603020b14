/** @jsxRuntime automatic @jsxImportSource react */
import { Text } from '@react-email/text';
import { ActionLink, MailLayout, muted } from './layout';

export interface ResetPasswordProps {
  resetUrl: string;
  expiresMinutes: number;
}

export function ResetPassword({ resetUrl, expiresMinutes }: ResetPasswordProps) {
  return (
    <MailLayout preview="Restablece tu contraseña de Folio">
      <Text>Recibimos una solicitud para restablecer la contraseña de tu cuenta de Folio.</Text>
      <ActionLink href={resetUrl} label="Elegir una contraseña nueva" />
      <Text>
        El enlace caduca en {expiresMinutes} minutos y sirve una sola vez. Al usarlo se cierran todas tus
        sesiones abiertas.
      </Text>
      <Text style={muted}>Si no lo pediste, ignora este correo: tu contraseña no cambia.</Text>
    </MailLayout>
  );
}
