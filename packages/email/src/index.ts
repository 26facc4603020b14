export {
  createEmailDispatcher,
  type DispatcherLog,
  type EmailDispatcher,
  type EmailDispatcherOptions,
} from './dispatcher';
export { enqueueEmail, type OutboxMessage } from './outbox';
export {
  type RenderedEmail,
  renderPasswordChangedEmail,
  renderPasswordResetEmail,
  renderVerificationEmail,
} from './render';
export { VerifyEmail, type VerifyEmailProps } from './templates/verify-email';
