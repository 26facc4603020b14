import { PASSWORD_MAX, PASSWORD_MIN } from '@folio/auth';
import { z } from 'zod';
import { Message, User } from '../schemas/user';
import { changePassword } from '../services/auth/change-password';
import { login } from '../services/auth/login';
import { logout } from '../services/auth/logout';
import { requestPasswordReset, resetPassword } from '../services/auth/password-reset';
import { refreshSession } from '../services/auth/refresh';
import { register } from '../services/auth/register';
import { toUser } from '../services/auth/user-dto';
import { resendVerification, verifyEmail } from '../services/auth/verify-email';
import { authedProcedure, publicProcedure, router } from '../trpc';

const optionalText = z.string().trim().max(100).optional();
const Token = z.string().min(1).max(200);
const TokenInput = z.object({ token: Token });
const NewPassword = z.string().min(PASSWORD_MIN).max(PASSWORD_MAX);
const keysRevoked = (n: number) =>
  n === 0 ? '' : n === 1 ? ' and 1 API key revoked' : ` and ${n} API keys revoked`;
const Email = z.string().trim().max(254).pipe(z.email('Invalid email format')).meta({ format: 'email' });
const AccessToken = z.object({ accessToken: z.string(), expiresAt: z.string() });
const UserMessage = z.object({ message: z.string(), user: User });
/** A verification's answer: the user on first use only (a used link must not reveal the account). */
const VerifyAnswer = z.object({
  message: z.string(),
  user: User.optional().meta({ description: 'The verified account; absent when the link was already used' }),
});

export const authRouter = router({
  register: publicProcedure
    .meta({
      openapi: {
        method: 'POST',
        path: '/auth/register',
        tags: ['auth'],
        summary: 'Register a user; a verification email is sent',
        description:
          'Creates the account (password hashed with argon2id) and mails a verification link. The account can log in at once; an email already registered answers 400.',
        protect: false,
        errorResponses: [400, 415, 429, 500],
      },
      rest: { successStatus: 201, errorLabels: { 400: 'VALIDATION_ERROR' }, jsonOnly: true },
    })
    .input(
      z
        .object({
          email: Email,
          password: NewPassword,
          nombre: optionalText,
          apellido: optionalText,
          telefono: z.string().trim().max(30).optional(),
        })
        .meta({
          example: {
            email: 'ana@example.com',
            password: 'una-clave-segura',
            nombre: 'Ana',
            apellido: 'Pérez',
          },
        }),
    )
    .output(UserMessage)
    .mutation(async ({ ctx, input }) => ({
      message: 'User registered. Check your email to verify the address.',
      user: await register(ctx, input),
    })),

  login: publicProcedure
    .meta({
      openapi: {
        method: 'POST',
        path: '/auth/login',
        tags: ['auth'],
        summary: 'Log in; returns an access token and sets the access_token cookie',
        description:
          'Checks the password and opens a session: the answer carries an access token for `Authorization: Bearer`, and the same token is set as the HttpOnly `access_token` cookie. Repeated failures are rate-limited (429).',
        protect: false,
        errorResponses: [400, 401, 403, 415, 429, 500],
      },
      rest: { jsonOnly: true, setsCookie: true },
    })
    .input(
      z
        .object({
          email: z.string().max(254).meta({ format: 'email' }),
          password: z.string().max(PASSWORD_MAX),
        })
        .meta({ example: { email: 'ana@example.com', password: 'una-clave-segura' } }),
    )
    .output(AccessToken.extend({ message: z.string(), user: User }))
    .mutation(async ({ ctx, input }) => ({ message: 'Logged in', ...(await login(ctx, input)) })),

  logout: publicProcedure
    .meta({
      sessionOnly: true,
      openapi: {
        method: 'POST',
        path: '/auth/logout',
        tags: ['auth'],
        summary: 'Revoke the session and clear the cookie',
        description:
          'Revokes the session of the token (header or cookie) and clears the cookie. Without a session it still answers 200, so it is safe to call twice.',
        protect: false,
        errorResponses: [403, 500],
      },
      rest: { setsCookie: true },
    })
    .input(z.object({}).optional())
    .output(Message)
    .mutation(async ({ ctx }) => {
      await logout(ctx);
      return { message: 'Logged out' };
    }),

  me: authedProcedure
    .meta({
      openapi: {
        method: 'GET',
        path: '/auth/me',
        tags: ['auth'],
        summary: 'The current user',
        description: 'The user the access token belongs to, with `email_verified`.',
        errorResponses: [401, 500],
      },
    })
    .input(z.object({}).optional())
    .output(z.object({ user: User }))
    .query(({ ctx }) => ({ user: toUser(ctx.user) })),

  verifyEmail: publicProcedure
    .meta({
      openapi: {
        method: 'POST',
        path: '/auth/verify-email',
        tags: ['auth'],
        summary: 'Verify the email with the token from the message',
        description:
          'Marks the email verified with the token from the verification mail. An unknown or expired token answers 400.',
        protect: false,
        errorResponses: [400, 500],
      },
    })
    .input(TokenInput)
    .output(VerifyAnswer)
    .mutation(({ ctx, input }) => verifyEmail(ctx, input.token)),

  verifyEmailLink: publicProcedure
    .meta({
      openapi: {
        method: 'GET',
        path: '/auth/verify-email',
        tags: ['auth'],
        summary: 'Verify the email from the link in the message',
        description:
          'What the link in the verification mail opens: the token is in the query string. A browser (Accept: text/html) gets a Spanish page; other clients get JSON. A second use of the link answers 200 `{message: "Email already verified"}` and nothing of the account; an unknown or expired token answers 400.',
        protect: false,
        errorResponses: [400, 500],
      },
    })
    .input(TokenInput)
    .output(VerifyAnswer)
    .query(({ ctx, input }) => verifyEmail(ctx, input.token)),

  resendVerification: authedProcedure
    .meta({
      openapi: {
        method: 'POST',
        path: '/auth/resend-verification',
        tags: ['auth'],
        summary: 'Send a new verification email',
        description:
          "Mails a fresh verification link to the caller's address (rate-limited). Earlier links stop working.",
        errorResponses: [401, 403, 429, 500],
      },
    })
    .input(z.object({}).optional())
    .output(Message)
    .mutation(async ({ ctx }) => ({ message: await resendVerification(ctx, ctx.user) })),

  refresh: authedProcedure
    .meta({
      sessionOnly: true,
      openapi: {
        method: 'POST',
        path: '/auth/refresh',
        description:
          'Moves the expiry of the live session to now + SESSION_TTL_DAYS and returns an access token that lives as long (a cookie client also gets the cookie renewed). Bearer clients call it before expiresAt; the SDK does it by itself. API keys have no session to refresh (403).',
        tags: ['auth'],
        summary:
          'Extend the live session: a fresh access token and expiry (Bearer clients call it before expiresAt)',
        errorResponses: [401, 403, 500],
      },
    })
    .input(z.object({}).optional())
    .output(AccessToken.extend({ message: z.string() }))
    .mutation(async ({ ctx }) => ({
      message: 'Session extended',
      ...(await refreshSession(ctx, ctx.session)),
    })),

  forgotPassword: publicProcedure
    .meta({
      openapi: {
        method: 'POST',
        path: '/auth/forgot-password',
        description:
          'Mails a reset link that lasts an hour and works once, when the address has an account. The answer, the limits (3 per hour per address from one client, 10 per client) and the work done are the same whether or not it has one, so the route tells nobody which addresses are registered; requests from other clients never use up the owner’s.',
        tags: ['auth'],
        summary: 'Mail a one-hour reset link; the answer is the same whether or not the account exists',
        protect: false,
        errorResponses: [400, 429, 500],
      },
    })
    .input(z.object({ email: Email }).meta({ example: { email: 'ana@example.com' } }))
    .output(Message)
    .mutation(async ({ ctx, input }) => ({ message: await requestPasswordReset(ctx, input.email) })),

  resetPassword: publicProcedure
    .meta({
      openapi: {
        method: 'POST',
        path: '/auth/reset-password',
        description:
          'Sets a new password with the token from the reset mail. The token is checked before anything else (a bogus one answers 400 at once) and spent (a second use answers 400); every session and every API key of the user ends, and a notice naming how many keys were revoked is mailed. Limited to 10 tries per hour per client and 5 per token.',
        tags: ['auth'],
        summary:
          'Set a new password with the token from the reset mail; every session and API key of the user ends',
        protect: false,
        errorResponses: [400, 429, 500],
      },
    })
    .input(z.object({ token: Token, password: NewPassword }))
    .output(Message)
    .mutation(async ({ ctx, input }) => {
      const { revokedKeys } = await resetPassword(ctx, input);
      return { message: `Password changed${keysRevoked(revokedKeys)}; log in with the new password` };
    }),

  changePassword: authedProcedure
    .meta({
      sessionOnly: true,
      openapi: {
        method: 'POST',
        path: '/auth/change-password',
        description:
          "Changes the password of the logged-in user, who must give the current one (5 wrong tries per 15 minutes). The caller's session stays; every other session ends; with `revokeApiKeys: true` every API key ends too. A notice is mailed, listing the API keys left active.",
        tags: ['auth'],
        summary: 'Change the password knowing the current one; the other sessions end',
        errorResponses: [400, 401, 403, 429, 500],
      },
    })
    .input(
      z.object({
        currentPassword: z.string().max(PASSWORD_MAX),
        newPassword: NewPassword,
        revokeApiKeys: z
          .boolean()
          .optional()
          .describe('Also revoke every API key of the account (else the notice lists those left active)'),
      }),
    )
    .output(Message)
    .mutation(async ({ ctx, input }) => {
      const { revokedKeys } = await changePassword(ctx, ctx.user, ctx.session, input);
      return { message: `Password changed; your other sessions were ended${keysRevoked(revokedKeys)}` };
    }),
});
