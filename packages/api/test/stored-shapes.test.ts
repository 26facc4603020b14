import type { Validacion, ValidationFlags } from '@folio/cfdi';
import type {
  Validacion as StoredValidacion,
  ValidationFlags as StoredValidationFlags,
} from '@folio/db/schema';
import { describe, expectTypeOf, it } from 'vitest';

// packages/db may not import packages/cfdi (imports flow downward), so both declare the JSON shapes
// the database stores. These assertions are checked by `pnpm typecheck`: it fails the moment the two
// declarations differ, which lets the import service store what packages/cfdi computes without a cast.
describe('the JSON the database stores has the shapes packages/cfdi computes', () => {
  it('validaciones_habilitadas is ValidationFlags', () => {
    expectTypeOf<StoredValidationFlags>().toEqualTypeOf<ValidationFlags>();
  });

  it('validacion is Validacion', () => {
    expectTypeOf<StoredValidacion>().toEqualTypeOf<Validacion>();
  });
});
