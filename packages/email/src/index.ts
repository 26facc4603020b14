export { enqueueEmail, enqueueEmailToAccount, type OutboxMessage } from './outbox';
export {
  type RenderedEmail,
  renderPasswordChangedEmail,
  renderPasswordResetEmail,
  renderSatAlertsEmail,
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
export {
  describeAlert,
  MAX_ALERT_LINES,
  type SatAlertLine,
  type SatAlertsProps,
} from './templates/sat-alerts';
export { VerifyEmail, type VerifyEmailProps } from './templates/verify-email';
