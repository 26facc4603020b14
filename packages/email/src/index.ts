export { enqueueEmail, enqueueEmailToAccount, type OutboxMessage } from './outbox';
export {
  type RenderedEmail,
  renderEfirmaExpiringEmail,
  renderEfirmaRefusedEmail,
  renderPasswordChangedEmail,
  renderPasswordResetEmail,
  renderSatAlertsEmail,
  renderSupportAcknowledgementEmail,
  renderSupportRequestEmail,
  renderVerificationEmail,
} from './render';
export {
  createMailSender,
  type Delivery,
  type MailSender,
  type MailSenderOptions,
  type Retry,
  type SenderLog,
} from './sender';
export type { EfirmaExpiringProps } from './templates/efirma-expiring';
export type { EfirmaRefusedProps } from './templates/efirma-refused';
export {
  describeAlert,
  MAX_ALERT_LINES,
  type SatAlertLine,
  type SatAlertsProps,
} from './templates/sat-alerts';
export type { SupportRequestProps, SupportTicket } from './templates/support-request';
export { VerifyEmail, type VerifyEmailProps } from './templates/verify-email';
