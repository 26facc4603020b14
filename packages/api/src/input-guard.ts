import { z } from 'zod';

/**
 * PostgreSQL `text` cannot hold U+0000: a NUL in any input string that reaches a query fails it
 * with SQLSTATE 22021, which surfaced as a 500. JSON, query strings and path parameters can all
 * carry one (`\u0000`, `%00`), so the procedure layer refuses it as invalid input up front.
 */

type Node = { value: unknown; key?: PropertyKey; parent?: Node };

/** The path of the first string value or object key holding U+0000, or null. Iterative: input may nest deeply. */
export function nulPath(input: unknown): PropertyKey[] | null {
  const stack: Node[] = [{ value: input }];
  while (stack.length) {
    const node = stack.pop()!;
    const { value } = node;
    if (typeof value === 'string') {
      if (value.includes('\0')) return pathOf(node);
    } else if (Array.isArray(value)) {
      for (let i = 0; i < value.length; i++) stack.push({ value: value[i], key: i, parent: node });
    } else if (value !== null && typeof value === 'object') {
      for (const [key, v] of Object.entries(value)) {
        if (key.includes('\0')) return pathOf({ value: key, key, parent: node });
        stack.push({ value: v, key, parent: node });
      }
    }
  }
  return null;
}

function pathOf(node: Node): PropertyKey[] {
  const path: PropertyKey[] = [];
  for (let n: Node | undefined = node; n?.parent; n = n.parent) path.unshift(n.key!);
  return path;
}

export const NUL_MESSAGE = 'must not contain NUL (U+0000) characters';

/** A real ZodError for the path, so the REST layer reports it like any input error (400, or 422). */
export function nulInputError(path: PropertyKey[]): z.ZodError {
  const result = z
    .unknown()
    .superRefine((_, ctx) => ctx.addIssue({ code: 'custom', message: NUL_MESSAGE, path }))
    .safeParse(null);
  return result.error!;
}
