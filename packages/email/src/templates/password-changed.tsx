/** @jsxRuntime automatic @jsxImportSource react */
import { Text } from '@react-email/text';
import { ActionLink, MailLayout } from './layout';

/** An API key as the notice names it: by what Folio chose (prefix, scope, date), never its typed name. */
export interface NoticeKey {
  prefix: string;
  scope: 'read' | 'write';
  /** YYYY-MM-DD */
  created: string;
}

export interface PasswordChangedProps {
  /** Where someone who did not make the change can take the account back. */
  forgotUrl: string;
  /** API keys the change revoked (a reset revokes them all; a change when asked). */
  revokedKeys: number;
  /** API keys still working after the change: whoever holds one can still act as the account. */
  activeKeys: NoticeKey[];
}

const claves = (n: number) => (n === 1 ? 'tu clave de API' : `tus ${n} claves de API`);

export function PasswordChanged({ forgotUrl, revokedKeys, activeKeys }: PasswordChangedProps) {
  return (
    <MailLayout preview="Tu contraseña de Folio cambió">
      <Text>La contraseña de tu cuenta de Folio acaba de cambiar y cerramos tus otras sesiones.</Text>
      {revokedKeys > 0 ? (
        <Text>También revocamos {claves(revokedKeys)}: crea de nuevo las que necesites.</Text>
      ) : activeKeys.length === 0 ? (
        <Text>No tenías claves de API activas.</Text>
      ) : null}
      {activeKeys.length > 0 ? (
        <>
          <Text>
            Estas claves de API siguen activas; si no las reconoces, revócalas en Folio (quien tenga una puede
            usar tu cuenta):
          </Text>
          {activeKeys.map((k) => (
            <Text key={k.prefix}>
              {k.prefix}… ({k.scope === 'write' ? 'lectura y escritura' : 'solo lectura'}, creada el{' '}
              {k.created})
            </Text>
          ))}
        </>
      ) : null}
      <Text>Si fuiste tú, no tienes que hacer nada más.</Text>
      <Text>Si no fuiste tú, restablece tu contraseña ahora mismo:</Text>
      <ActionLink href={forgotUrl} label="Restablecer contraseña" />
    </MailLayout>
  );
}
