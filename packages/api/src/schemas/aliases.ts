import { z } from 'zod';

type Aliased<O, P extends Record<string, string>, R extends string> = Omit<O, keyof P | R> & {
  [K in R & keyof O]-?: Exclude<O[K], undefined>;
};

/**
 * An input object some of whose fields may arrive under a second name (the spec spells `profileId`
 * and `profile_id` both ways; manual expenses return `concepto` but were written with `concept`).
 * `aliases` maps each alias to its field; both names are optional in the schema (and documented),
 * the `required` fields must come under one of them, two different values are refused, and the
 * output carries only the field's own name.
 */
export function withAliases<
  T extends z.ZodObject,
  const P extends Record<string, string>,
  const R extends P[keyof P] = never,
>(object: T, aliases: P, required: readonly R[] = []) {
  return object
    .superRefine((value, ctx) => {
      const v = value as Record<string, unknown>;
      for (const [alias, name] of Object.entries(aliases)) {
        if (v[alias] !== undefined && v[name] !== undefined && v[alias] !== v[name]) {
          ctx.addIssue({ code: 'custom', path: [alias], message: `${alias} and ${name} differ; send one` });
        }
      }
      for (const name of required) {
        const alias = Object.keys(aliases).find((a) => aliases[a] === name);
        if (v[name] === undefined && (alias === undefined || v[alias] === undefined)) {
          ctx.addIssue({
            code: 'custom',
            path: [name],
            message: alias ? `${name} (or ${alias}) is required` : `${name} is required`,
          });
        }
      }
    })
    .transform((value) => {
      const out = { ...(value as Record<string, unknown>) };
      for (const [alias, name] of Object.entries(aliases)) {
        out[name] ??= out[alias];
        delete out[alias];
      }
      return out as Aliased<z.output<T>, P, R>;
    });
}

const ProfileRef = z.string().trim().min(1).max(100).meta({ description: 'The profile: its id or its RFC' });

/** `profileId` and its alias `profile_id`, for inputs that name a profile (with `withAliases`). */
export const profileRefFields = {
  profileId: ProfileRef.optional(),
  profile_id: ProfileRef.optional().meta({ description: 'Same as profileId (either spelling works)' }),
};
export const PROFILE_ALIAS = { profile_id: 'profileId' } as const;
