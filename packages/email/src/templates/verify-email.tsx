/** @jsxRuntime automatic @jsxImportSource react */
// The pragma keeps the automatic JSX runtime when this file is run by tsx from another package,
// where this package's tsconfig is not the one in force.
import { Body } from '@react-email/body';
import { Button } from '@react-email/button';
import { Container } from '@react-email/container';
import { Head } from '@react-email/head';
import { Heading } from '@react-email/heading';
import { Html } from '@react-email/html';
import { Link } from '@react-email/link';
import { Preview } from '@react-email/preview';
import { Text } from '@react-email/text';

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
    <Html lang="es">
      <Head />
      <Preview>Confirma tu correo en Folio</Preview>
      <Body style={{ backgroundColor: '#f6f7f9', fontFamily: 'Helvetica, Arial, sans-serif' }}>
        <Container style={{ backgroundColor: '#ffffff', padding: '32px', maxWidth: '480px' }}>
          <Heading as="h1" style={{ fontSize: '22px' }}>
            Hola
          </Heading>
          <Text>Confirma tu dirección de correo para activar tu cuenta de Folio.</Text>
          <Button
            href={verifyUrl}
            style={{
              backgroundColor: '#1d4ed8',
              color: '#ffffff',
              padding: '12px 20px',
              borderRadius: '6px',
            }}
          >
            Verificar correo
          </Button>
          <Text>Si el botón no funciona, copia este enlace en tu navegador:</Text>
          <Text>
            <Link href={verifyUrl}>{verifyUrl}</Link>
          </Text>
          <Text>El enlace caduca en {expiresHours} horas.</Text>
          <Text style={{ color: '#6b7280' }}>Si no creaste una cuenta en Folio, ignora este correo.</Text>
        </Container>
      </Body>
    </Html>
  );
}
