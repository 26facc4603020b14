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
    .meta({ sessionOnly: true })
    .input(z.object({}).optional())
    .output(Message)
    .mutation(async ({ ctx }) => {
      await logout(ctx);
      return { message: 'Logged out' };
    }),

  me: authedProcedure
    .input(z.object({}).optional())
    .output(z.object({ user: User }))
    .query(({ ctx }) => ({ user: toUser(ctx.user) })),

  verifyEmail: publicProcedure
    .input(TokenInput)
    .output(VerifyAnswer)
    .mutation(({ ctx, input }) => verifyEmail(ctx, input.token)),

  verifyEmailLink: publicProcedure
    .input(TokenInput)
    .output(VerifyAnswer)
    .query(({ ctx, input }) => verifyEmail(ctx, input.token)),

  resendVerification: authedProcedure
    .input(z.object({}).optional())
    .output(Message)
    .mutation(async ({ ctx }) => ({ message: await resendVerification(ctx, ctx.user) })),

  refresh: authedProcedure
    .meta({ sessionOnly: true })
    .input(z.object({}).optional())
    .output(AccessToken.extend({ message: z.string() }))
    .mutation(async ({ ctx }) => ({
      message: 'Session extended',
      ...(await refreshSession(ctx, ctx.session)),
    })),

  forgotPassword: publicProcedure
    .input(z.object({ email: Email }).meta({ example: { email: 'ana@example.com' } }))
    .output(Message)
    .mutation(async ({ ctx, input }) => ({ message: await requestPasswordReset(ctx, input.email) })),

  resetPassword: publicProcedure
    .input(z.object({ token: Token, password: NewPassword }))
    .output(Message)
    .mutation(async ({ ctx, input }) => {
      const { revokedKeys } = await resetPassword(ctx, input);
      return { message: `Password changed${keysRevoked(revokedKeys)}; log in with the new password` };
    }),

  changePassword: authedProcedure
    .meta({ sessionOnly: true })
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
