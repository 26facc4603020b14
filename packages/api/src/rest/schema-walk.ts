/** Read-only helpers over zod 4 schemas (`_zod.def`); nothing here mutates a schema. */

type Def = {
  type: string;
  innerType?: unknown;
  in?: unknown;
  shape?: Record<string, unknown>;
  element?: unknown;
};
const defOf = (s: unknown): Def | undefined => (s as { _zod?: { def?: Def } } | undefined)?._zod?.def;

const WRAPPERS = new Set(['optional', 'nullable', 'default', 'prefault', 'readonly', 'catch', 'nonoptional']);

/** Strips optional/default/… wrappers and pipes down to the schema that decides the type. */
export function unwrap(schema: unknown): unknown {
  let s = schema;
  for (let i = 0; i < 20; i++) {
    const def = defOf(s);
    if (!def) return s;
    if (WRAPPERS.has(def.type)) s = def.innerType;
    else if (def.type === 'pipe') s = def.in;
    else return s;
  }
  return s;
}

export const typeOf = (schema: unknown): string | undefined => defOf(unwrap(schema))?.type;

export function shapeOf(schema: unknown): Record<string, unknown> {
  const def = defOf(unwrap(schema));
  return def?.type === 'object' && def.shape ? def.shape : {};
}

export function elementOf(schema: unknown): unknown {
  return defOf(unwrap(schema))?.element;
}
