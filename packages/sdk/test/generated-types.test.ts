import { readFileSync } from 'node:fs';
import { expect, it } from 'vitest';
import { renderOpenApiTypes, TYPES_PATH } from '../scripts/openapi-types';

it('src/generated/openapi.d.ts is what openapi-typescript makes of the committed OpenAPI snapshot', async () => {
  const fresh = await renderOpenApiTypes();
  const committed = readFileSync(TYPES_PATH, 'utf8');
  expect(
    committed === fresh,
    'The SDK types are stale: run `pnpm openapi:update`, review and commit src/generated/openapi.d.ts',
  ).toBe(true);
});
