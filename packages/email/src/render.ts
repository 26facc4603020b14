import { render } from '@react-email/render';
import { createElement } from 'react';
import { VerifyEmail, type VerifyEmailProps } from './templates/verify-email';

export interface RenderedEmail {
  subject: string;
  html: string;
  text: string;
}

export async function renderVerificationEmail(props: VerifyEmailProps): Promise<RenderedEmail> {
  const element = createElement(VerifyEmail, props);
  const [html, text] = await Promise.all([
    render(element),
    render(element, {
      plainText: true,
      // html-to-text shouts headings by default; "HOLA, ANA" reads badly in a plain-text mail.
      htmlToTextOptions: { selectors: [{ selector: 'h1', options: { uppercase: false } }] },
    }),
  ]);
  return { subject: 'Confirma tu correo en Folio', html, text };
}
