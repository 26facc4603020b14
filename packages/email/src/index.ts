export {
  createEmailDispatcher,
  type DispatcherLog,
  type EmailDispatcher,
  type EmailDispatcherOptions,
} from './dispatcher';
export { enqueueEmail, enqueueEmailToAccount, type OutboxMessage } from './outbox';
export {
  type RenderedEmail,
  renderPasswordChangedEmail,
  renderPasswordResetEmail,
  renderSatAlertsEmail,
  renderSupportAcknowledgementEmail,
  renderSupportRequestEmail,
  renderVerificationEmail,
} from './render';
export {
  describeAlert,
  MAX_ALERT_LINES,
  type SatAlertLine,
  type SatAlertsProps,
} from './templates/sat-alerts';
export type { SupportRequestProps, SupportTicket } from './templates/support-request';
export { VerifyEmail, type VerifyEmailProps } from './templates/verify-email';
