import { PASSWORD_RESET_TTL_MINUTES, VERIFICATION_TTL_HOURS } from '@folio/auth';

export const RESET_MAIL = 'password-reset';
export const VERIFY_MAIL = 'verify-email';

/**
 * The mails whose links are credentials, and how long those links work: the outbox keeps no usable
 * link of theirs once sent, used or expired (the email dispatcher's `secretLinks`).
 */
export const SECRET_LINK_MAILS: Record<string, number> = {
  [RESET_MAIL]: PASSWORD_RESET_TTL_MINUTES * 60_000,
  [VERIFY_MAIL]: VERIFICATION_TTL_HOURS * 3600_000,
};
