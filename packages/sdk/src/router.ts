/**
 * The server's router type as a client sees it, with nothing of the server left in it.
 *
 * `AppRouter` from `@folio/api` names the server's context (database handles, config) and its meta
 * type (trpc-to-openapi); a published `.d.ts` importing it would drag the workspace in. Here each
 * procedure keeps only its input, output and error shape, and `record` is a value whose type the
 * declaration emitter writes out in full, so the built `.d.ts` holds plain object types and imports
 * nothing but `@trpc/server`. scripts/check-dist.mjs (run by scripts/sdk-consume.sh in CI) checks it.
 */
import type { AppRouter as ServerRouter } from '@folio/api';
import type {
  AnyTRPCProcedure,
  inferRouterInputs,
  inferRouterOutputs,
  TRPCBuiltRouter,
  TRPCMutationProcedure,
  TRPCQueryProcedure,
  TRPCSubscriptionProcedure,
} from '@trpc/server';

// The procedure definitions are written inline (no helper alias) so the emitter expands them.
type Clean<T, E> = T extends AnyTRPCProcedure
  ? T['_def']['type'] extends 'query'
    ? TRPCQueryProcedure<{
        input: T['_def']['$types']['input'];
        output: T['_def']['$types']['output'];
        meta: object;
        errorShape: E;
      }>
    : T['_def']['type'] extends 'mutation'
      ? TRPCMutationProcedure<{
          input: T['_def']['$types']['input'];
          output: T['_def']['$types']['output'];
          meta: object;
          errorShape: E;
        }>
      : TRPCSubscriptionProcedure<{
          input: T['_def']['$types']['input'];
          output: T['_def']['$types']['output'];
          meta: object;
          errorShape: E;
        }>
  : T extends infer O
    ? { [K in keyof O]: Clean<O[K], E> }
    : never;

type ServerTypes = ServerRouter['_def']['_config']['$types'];
/** Server interfaces in the error shape (e.g. FieldError) written out as object types, not named. */
type Plain<T> = T extends object ? { [K in keyof T]: Plain<T[K]> } : T;
type ErrorShape = Plain<ServerTypes['errorShape']>;

// Types only: nothing here runs (index.ts re-exports the types, so bundlers drop this module).
const expand = <T, E>(): Clean<T, E> => undefined as never;
const record = expand<ServerRouter['_def']['record'], ErrorShape>();
const root = expand<{ errorShape: ErrorShape }, never>();

/** The Folio tRPC router, for `createTRPCClient<AppRouter>` and the inference helpers. */
export type AppRouter = TRPCBuiltRouter<
  { ctx: object; meta: object; errorShape: (typeof root)['errorShape']; transformer: true },
  typeof record
>;

/** Inputs of every procedure, e.g. `RouterInputs['invoices']['list']`. */
export type RouterInputs = inferRouterInputs<AppRouter>;
/** Outputs of every procedure, e.g. `RouterOutputs['invoices']['list']['data'][number]`. */
export type RouterOutputs = inferRouterOutputs<AppRouter>;
