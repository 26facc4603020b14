import { elementOf, shapeOf, typeOf } from './schema-walk';

const NUMERIC = /^-?(\d+\.?\d*|\.\d+)(e[+-]?\d+)?$/i;

function coerceOne(leafType: string | undefined, value: string): unknown {
  if ((leafType === 'number' || leafType === 'int') && NUMERIC.test(value.trim())) return Number(value);
  if (leafType === 'bigint' && /^-?\d+$/.test(value.trim())) return BigInt(value);
  if (leafType === 'boolean') {
    if (value === 'true') return true;
    if (value === 'false') return false;
  }
  return value; // left as text: the schema reports it, as a 400
}

/**
 * Turns query-string (or path) values into what the input schema expects, without touching the
 * schema: numeric text becomes a number only where the schema wants a number, "true"/"false" a
 * boolean, repeated keys an array only where it wants an array. Anything else is passed through
 * so validation rejects it with the route's error status.
 */
export function coerceParams(
  schema: unknown,
  raw: Record<string, string | string[]>,
): Record<string, unknown> {
  const shape = shapeOf(schema);
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(raw)) {
    const field = shape[key];
    const values = Array.isArray(value) ? value : [value];
    if (typeOf(field) === 'array') {
      const element = typeOf(elementOf(field));
      out[key] = values.map((v) => coerceOne(element, v));
    } else {
      out[key] = values.length === 1 ? coerceOne(typeOf(field), values[0] as string) : values;
    }
  }
  return out;
}
