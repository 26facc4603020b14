import { describe, expect, it } from 'vitest';
import {
  renderEfirmaExpiringEmail,
  renderEfirmaRefusedEmail,
  renderPasswordChangedEmail,
  renderPasswordResetEmail,
  renderVerificationEmail,
} from './render';

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

describe('renderPasswordResetEmail', () => {
  const resetUrl = 'http://localhost:3000/auth/reset-password?token=abc234';

  it('is Spanish, carries the link, says it lasts 60 minutes and serves once', async () => {
    const { subject, html, text } = await renderPasswordResetEmail({
      resetUrl,
      expiresMinutes: 60,
    });
    expect(subject).toBe('Restablece tu contraseña de Folio');
    expect(html).toMatch(/<html[^>]*lang="es"/);
    expect(html).toContain(`href="${resetUrl}"`);
    expect(text).toMatch(/^Hola$/m);
    expect(text).toContain(resetUrl);
    expect(text).toMatch(/caduca en 60 minutos y sirve una sola vez/);
    expect(text).toMatch(/Si no lo pediste, ignora este correo/);
  });
});

describe('renderPasswordChangedEmail', () => {
  it('is Spanish and tells someone who did not change it how to take the account back', async () => {
    const forgotUrl = 'http://localhost:3000/auth/forgot-password';
    const { subject, html, text } = await renderPasswordChangedEmail({
      forgotUrl,
      revokedKeys: 0,
      activeKeys: [],
    });
    expect(subject).toBe('Tu contraseña de Folio cambió');
    expect(html).toMatch(/<html[^>]*lang="es"/);
    expect(text).toMatch(/^Hola$/m);
    expect(text).toMatch(/Si no fuiste tú, restablece tu contraseña/);
    expect(text).toContain(forgotUrl);
  });
});

describe('renderEfirmaExpiringEmail', () => {
  const efirma = { rfc: 'EKU9003173C9', numeroCertificado: '30001000000500003416' };

  it('is Spanish and names the RFC, the certificate, the last valid day (Mexico City) and how to replace it', async () => {
    // 2027-05-11T04:00Z is 10 May 2027, 22:00 in Mexico City (UTC−6).
    const { subject, html, text } = await renderEfirmaExpiringEmail({
      ...efirma,
      validoHasta: new Date('2027-05-11T04:00:00Z'),
      dias: 30,
    });
    expect(subject).toBe('Tu e.firma vence en 30 días');
    expect(html).toMatch(/<html[^>]*lang="es"/);
    expect(text).toContain(
      'La e.firma del RFC EKU9003173C9 que guardaste en Folio (certificado 30001000000500003416) vence en 30 días',
    );
    expect(text).toContain('es válida hasta el 10 de mayo de 2027');
    expect(text).toContain('folio sat efirma');
  });

  it('says tomorrow, today and past in words', async () => {
    const at = { ...efirma, validoHasta: new Date('2027-05-11T04:00:00Z') };
    expect((await renderEfirmaExpiringEmail({ ...at, dias: 1 })).subject).toBe('Tu e.firma vence mañana');
    expect((await renderEfirmaExpiringEmail({ ...at, dias: 0 })).subject).toBe('Tu e.firma vence hoy');
    expect((await renderEfirmaExpiringEmail({ ...at, dias: -2 })).subject).toBe('Tu e.firma venció');
  });
});

describe('renderEfirmaRefusedEmail', () => {
  it("is Spanish and names the RFC, SAT's code and how to upload the current e.firma", async () => {
    const { subject, html, text } = await renderEfirmaRefusedEmail({ rfc: 'EKU9003173C9', codigo: 305 });
    expect(subject).toBe('SAT rechazó tu e.firma');
    expect(html).toMatch(/<html[^>]*lang="es"/);
    expect(text).toContain(
      'El SAT rechazó la e.firma del RFC EKU9003173C9 que guardaste en Folio (código 305)',
    );
    expect(text).toContain('folio sat efirma');
  });
});
