export { type AccessTokenClaims, signAccessToken, verifyAccessToken } from './access-token';
export { API_KEY_PREFIX, generateApiKey, isApiKey } from './api-key';
export {
  consumeVerificationToken,
  issueVerificationToken,
  VERIFICATION_TTL_HOURS,
} from './email-verification';
export {
  createSession,
  extendSession,
  invalidateSession,
  type SessionRow,
  type UserRow,
  type ValidSession,
  validateSessionToken,
} from './login-session';
export { hashPassword, PASSWORD_MAX, PASSWORD_MIN, verifyPassword } from './password';
export {
  checkPasswordResetToken,
  consumePasswordResetToken,
  issuePasswordResetToken,
  PASSWORD_RESET_TTL_MINUTES,
} from './password-reset';
export { generateToken, hashToken } from './tokens';
