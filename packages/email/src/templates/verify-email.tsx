/** @jsxRuntime automatic @jsxImportSource react */
import { Text } from '@react-email/text';
import { ActionLink, MailLayout, muted } from './layout';

/**
 * Nothing the registrant typed goes in: the address is not verified yet, so whoever registers can
 * send this mail to anyone, and a "name" would be their message (a phishing line, a link).
 */
export interface VerifyEmailProps {
  verifyUrl: string;
  expiresHours: number;
}

export function VerifyEmail({ verifyUrl, expiresHours }: VerifyEmailProps) {
  return (
    <MailLayout preview="Confirma tu correo en Folio">
      <Text>Confirma tu dirección de correo para activar tu cuenta de Folio.</Text>
      <ActionLink href={verifyUrl} label="Verificar correo" />
      <Text>El enlace caduca en {expiresHours} horas.</Text>
      <Text style={muted}>Si no creaste una cuenta en Folio, ignora este correo.</Text>
    </MailLayout>
  );
}
