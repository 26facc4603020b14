import { forbidden } from '../../errors';

export const VERIFY_EMAIL_FIRST =
  'Verify your email first: open the link we mailed you (POST /api/auth/resend-verification sends a new one)';

/**
 * What an unverified account may not do: spend money (checkout) or hand out credentials (API keys).
 * Logging in, reading, creating profiles and importing stay open so a new user can try Folio at once.
 */
export function requireVerifiedEmail(user: { emailVerified: boolean }): void {
  if (!user.emailVerified) throw forbidden(VERIFY_EMAIL_FIRST, 'email_unverified');
}
