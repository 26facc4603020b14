/** A JSON-ish value decoded from Stripe's form encoding. */
export type FormValue = string | FormValue[] | { [key: string]: FormValue };
export type FormObject = { [key: string]: FormValue };

/**
 * Decodes Stripe's `application/x-www-form-urlencoded` bodies and query strings, where nesting is
 * written with brackets: `line_items[0][price]=p&metadata[userId]=u` → `{line_items:[{price:'p'}], …}`.
 */
export function parseForm(encoded: string): FormObject {
  const out: FormObject = {};
  for (const [rawKey, value] of new URLSearchParams(encoded)) {
    const keys = rawKey.replace(/\]/g, '').split('[');
    let node: FormObject | FormValue[] = out;
    for (let i = 0; i < keys.length; i++) {
      const key = keys[i] === '' && Array.isArray(node) ? String(node.length) : (keys[i] as string);
      const slot = node as Record<string, FormValue>;
      if (i === keys.length - 1) {
        slot[key] = value;
        break;
      }
      const next = keys[i + 1] as string;
      if (typeof slot[key] !== 'object') slot[key] = /^\d*$/.test(next) ? [] : {};
      node = slot[key] as FormObject | FormValue[];
    }
  }
  return out;
}
