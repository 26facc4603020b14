import { createElement, type FunctionComponent } from 'react';
import { EfirmaExpiring, type EfirmaExpiringProps, expiryWords } from './templates/efirma-expiring';
import { EfirmaRefused, type EfirmaRefusedProps } from './templates/efirma-refused';
import { PasswordChanged, type PasswordChangedProps } from './templates/password-changed';
import { ResetPassword, type ResetPasswordProps } from './templates/reset-password';
import { SatAlerts, type SatAlertsProps } from './templates/sat-alerts';
import {
  SupportAcknowledgement,
  SupportRequest,
  type SupportRequestProps,
  type SupportTicket,
} from './templates/support-request';
import { VerifyEmail, type VerifyEmailProps } from './templates/verify-email';

export interface RenderedEmail {
  subject: string;
  html: string;
  text: string;
}

/** HTML and plain text of one template, with its subject. */
async function renderEmail<P extends object>(
  template: FunctionComponent<P>,
  props: P,
  subject: string,
): Promise<RenderedEmail> {
  // Loaded by the first mail, not at start: the renderer and its HTML-to-text parsers are MBs of
  // code a server holds for nothing until it sends one (docs/benchmarks.md#memory).
  const { render } = await import('@react-email/render');
  const element = createElement(template, props);
  const [html, text] = await Promise.all([
    render(element),
    render(element, {
      plainText: true,
      // html-to-text shouts headings by default; "HOLA, ANA" reads badly in a plain-text mail.
      htmlToTextOptions: { selectors: [{ selector: 'h1', options: { uppercase: false } }] },
    }),
  ]);
  return { subject, html, text };
}

export const renderVerificationEmail = (props: VerifyEmailProps) =>
  renderEmail(VerifyEmail, props, 'Confirma tu correo en Folio');

export const renderPasswordResetEmail = (props: ResetPasswordProps) =>
  renderEmail(ResetPassword, props, 'Restablece tu contraseña de Folio');

export const renderPasswordChangedEmail = (props: PasswordChangedProps) =>
  renderEmail(PasswordChanged, props, 'Tu contraseña de Folio cambió');

export const renderEfirmaExpiringEmail = (props: EfirmaExpiringProps) =>
  renderEmail(EfirmaExpiring, props, `Tu e.firma ${expiryWords(props.dias)}`);

export const renderEfirmaRefusedEmail = (props: EfirmaRefusedProps) =>
  renderEmail(EfirmaRefused, props, 'SAT rechazó tu e.firma');

export function renderSatAlertsEmail(props: SatAlertsProps) {
  const codes = new Set(props.alerts.map((a) => a.clave)).size;
  const subject =
    codes === 1
      ? 'El SAT cambió una clave de tus favoritos'
      : `El SAT cambió ${codes} claves de tus favoritos`;
  return renderEmail(SatAlerts, props, subject);
}

/** To the support team; the subject leads with the folio and priority, then the user's one-line subject. */
export const renderSupportRequestEmail = (props: SupportRequestProps) =>
  renderEmail(
    SupportRequest,
    props,
    `[${props.folio}] prioridad ${props.prioridad} · ${props.user.plan}: ${props.asunto}`,
  );

export const renderSupportAcknowledgementEmail = (props: SupportTicket) =>
  renderEmail(SupportAcknowledgement, props, `Recibimos tu solicitud de soporte ${props.folio}`);
