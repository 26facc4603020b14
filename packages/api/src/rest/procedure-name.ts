import type { AnyTRPCProcedure, TRPCRouterRecord } from '@trpc/server';
import type { AppRouter } from '../root';

type Names<R, P extends string = ''> = {
  [K in keyof R & string]: R[K] extends AnyTRPCProcedure
    ? `${P}${K}`
    : R[K] extends TRPCRouterRecord
      ? Names<R[K], `${P}${K}.`>
      : never;
}[keyof R & string];

/** Every procedure of the app router by its dotted path (`sat.favorites.save`): a typo fails typecheck. */
export type ProcedureName = Names<AppRouter['_def']['record']>;
