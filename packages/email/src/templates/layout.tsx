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
import type { ReactNode } from 'react';

/**
 * The frame every Folio mail shares: Spanish, a plain greeting, then the message. No name: whoever
 * registers an address (verified or not) types it, and it would be their words in our mail.
 */
export function MailLayout(props: { preview: string; children: ReactNode }) {
  return (
    <Html lang="es">
      <Head />
      <Preview>{props.preview}</Preview>
      <Body style={{ backgroundColor: '#f6f7f9', fontFamily: 'Helvetica, Arial, sans-serif' }}>
        <Container style={{ backgroundColor: '#ffffff', padding: '32px', maxWidth: '480px' }}>
          <Heading as="h1" style={{ fontSize: '22px' }}>
            Hola
          </Heading>
          {props.children}
        </Container>
      </Body>
    </Html>
  );
}

/** The call to action, with the bare link for mail clients that do not show buttons. */
export function ActionLink({ href, label }: { href: string; label: string }) {
  return (
    <>
      <Button
        href={href}
        style={{ backgroundColor: '#1d4ed8', color: '#ffffff', padding: '12px 20px', borderRadius: '6px' }}
      >
        {label}
      </Button>
      <Text>Si el botón no funciona, copia este enlace en tu navegador:</Text>
      <Text>
        <Link href={href}>{href}</Link>
      </Text>
    </>
  );
}

export const muted = { color: '#6b7280' };
