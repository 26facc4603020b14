/** @jsxRuntime automatic @jsxImportSource react */
import { Text } from '@react-email/text';
import { ActionLink, MailLayout } from './layout';

export interface PasswordChangedProps {
  /** Where someone who did not make the change can take the account back. */
  forgotUrl: string;
}

export function PasswordChanged({ forgotUrl }: PasswordChangedProps) {
  return (
    <MailLayout preview="Tu contraseña de Folio cambió">
      <Text>La contraseña de tu cuenta de Folio acaba de cambiar y cerramos tus otras sesiones.</Text>
      <Text>Si fuiste tú, no tienes que hacer nada más.</Text>
      <Text>Si no fuiste tú, restablece tu contraseña ahora mismo:</Text>
      <ActionLink href={forgotUrl} label="Restablecer contraseña" />
    </MailLayout>
  );
}
