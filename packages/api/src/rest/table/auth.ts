import type { RouteEntry } from './entry';

const tags = ['auth'];

/** The REST routes of accounts and sessions. */
export const authRoutes: RouteEntry[] = [
  {
    method: 'POST',
    path: '/auth/register',
    procedure: 'auth.register',
    protect: false,
    docs: {
      tags,
      summary: 'Register a user; a verification email is sent',
      description:
        'Creates the account (password hashed with argon2id) and mails a verification link. The account can log in at once; an email already registered answers 400.',
    },
    errors: [400, 415, 429, 500],
    rest: { successStatus: 201, errorLabels: { 400: 'VALIDATION_ERROR' }, jsonOnly: true },
  },
  {
    method: 'POST',
    path: '/auth/login',
    procedure: 'auth.login',
    protect: false,
    docs: {
      tags,
      summary: 'Log in; returns an access token and sets the access_token cookie',
      description:
        'Checks the password and opens a session: the answer carries an access token for `Authorization: Bearer`, and the same token is set as the HttpOnly `access_token` cookie. Repeated failures are rate-limited (429).',
    },
    errors: [400, 401, 403, 415, 429, 500],
    rest: { jsonOnly: true, setsCookie: true },
  },
  {
    method: 'POST',
    path: '/auth/logout',
    procedure: 'auth.logout',
    protect: false,
    docs: {
      tags,
      summary: 'Revoke the session and clear the cookie',
      description:
        'Revokes the session of the token (header or cookie) and clears the cookie. Without a session it still answers 200, so it is safe to call twice.',
    },
    errors: [403, 500],
    rest: { setsCookie: true },
  },
  {
    method: 'GET',
    path: '/auth/me',
    procedure: 'auth.me',
    docs: {
      tags,
      summary: 'The current user',
      description: 'The user the access token belongs to, with `email_verified`.',
    },
    errors: [401, 500],
  },
  {
    method: 'POST',
    path: '/auth/verify-email',
    procedure: 'auth.verifyEmail',
    protect: false,
    docs: {
      tags,
      summary: 'Verify the email with the token from the message',
      description:
        'Marks the email verified with the token from the verification mail. An unknown or expired token answers 400.',
    },
    errors: [400, 500],
  },
  {
    method: 'GET',
    path: '/auth/verify-email',
    procedure: 'auth.verifyEmailLink',
    protect: false,
    docs: {
      tags,
      summary: 'Verify the email from the link in the message',
      description:
        'What the link in the verification mail opens: the token is in the query string. A browser (Accept: text/html) gets a Spanish page; other clients get JSON. A second use of the link answers 200 `{message: "Email already verified"}` and nothing of the account; an unknown or expired token answers 400.',
    },
    errors: [400, 500],
  },
  {
    method: 'POST',
    path: '/auth/resend-verification',
    procedure: 'auth.resendVerification',
    docs: {
      tags,
      summary: 'Send a new verification email',
      description:
        "Mails a fresh verification link to the caller's address (rate-limited). Earlier links stop working.",
    },
    errors: [401, 403, 429, 500],
  },
  {
    method: 'POST',
    path: '/auth/refresh',
    procedure: 'auth.refresh',
    docs: {
      description:
        'Moves the expiry of the live session to now + SESSION_TTL_DAYS and returns an access token that lives as long (a cookie client also gets the cookie renewed). Bearer clients call it before expiresAt; the SDK does it by itself. API keys have no session to refresh (403).',
      tags,
      summary:
        'Extend the live session: a fresh access token and expiry (Bearer clients call it before expiresAt)',
    },
    errors: [401, 403, 500],
  },
  {
    method: 'POST',
    path: '/auth/forgot-password',
    procedure: 'auth.forgotPassword',
    protect: false,
    docs: {
      description:
        'Mails a reset link that lasts an hour and works once, when the address has an account. The answer, the limits (3 per hour per address from one client, 10 per client) and the work done are the same whether or not it has one, so the route tells nobody which addresses are registered; requests from other clients never use up the owner’s.',
      tags,
      summary: 'Mail a one-hour reset link; the answer is the same whether or not the account exists',
    },
    errors: [400, 429, 500],
  },
  {
    method: 'POST',
    path: '/auth/reset-password',
    procedure: 'auth.resetPassword',
    protect: false,
    docs: {
      description:
        'Sets a new password with the token from the reset mail. The token is checked before anything else (a bogus one answers 400 at once) and spent (a second use answers 400); every session and every API key of the user ends, and a notice naming how many keys were revoked is mailed. Limited to 10 tries per hour per client and 5 per token.',
      tags,
      summary:
        'Set a new password with the token from the reset mail; every session and API key of the user ends',
    },
    errors: [400, 429, 500],
  },
  {
    method: 'POST',
    path: '/auth/change-password',
    procedure: 'auth.changePassword',
    docs: {
      description:
        "Changes the password of the logged-in user, who must give the current one (5 wrong tries per 15 minutes). The caller's session stays; every other session ends; with `revokeApiKeys: true` every API key ends too. A notice is mailed, listing the API keys left active.",
      tags,
      summary: 'Change the password knowing the current one; the other sessions end',
    },
    errors: [400, 401, 403, 429, 500],
  },
];
