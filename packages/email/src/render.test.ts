import { describe, expect, it } from 'vitest';
import { renderVerificationEmail } from './render';

const verifyUrl = 'http://localhost:3000/verify-email?token=tok_AbC-123';

describe('renderVerificationEmail', () => {
  it('gives the Spanish subject and a plain text carrying the link, the expiry and the ignore line', async () => {
    const { subject, text } = await renderVerificationEmail({ verifyUrl, expiresHours: 24 });
    expect(subject).toBe('Confirma tu correo en Folio');
    expect(text).toContain(verifyUrl);
    expect(text).toMatch(/^Hola$/m);
    expect(text).toContain('Confirma tu dirección de correo');
    expect(text).toContain('El enlace caduca en 24 horas.');
    expect(text).toMatch(/Si no creaste una cuenta en Folio, ignora este correo/);
    // Tests elsewhere pull the token out of the text with a regex, so it must appear unescaped.
    expect(text.match(/token=([\w-]+)/)?.[1]).toBe('tok_AbC-123');
  });

  it('renders HTML in Spanish (lang="es") with the "Verificar correo" button linking to the URL', async () => {
    const { html } = await renderVerificationEmail({ verifyUrl, expiresHours: 24 });
    expect(html).toMatch(/<html[^>]*lang="es"/);
    expect(html).toContain(`href="${verifyUrl}"`);
    expect(html).toContain('Verificar correo');
  });

  it('says the expiry it is given', async () => {
    const { text } = await renderVerificationEmail({ verifyUrl, expiresHours: 48 });
    expect(text).toContain('El enlace caduca en 48 horas.');
  });
});
