import type { Db } from '../db-types';
import { upsertSatProducts } from '../queries/sat-catalog-imports';
import { STARTER_PRODUCTS } from './starter-products';

/**
 * The few codes a database starts with when no catalog file is loaded (test databases); a real
 * catalog is loaded by packages/api's services/sat/catalog-import.ts. Returns how many.
 */
export async function seedStarterCatalog(db: Db): Promise<number> {
  await upsertSatProducts(
    db,
    STARTER_PRODUCTS.map(([id, descripcion, estimulo, palabras]) => ({
      id,
      descripcion,
      incluirIvaTrasladado: 'Opcional',
      incluirIepsTrasladado: 'Opcional',
      fechaInicioVigencia: '2019-01-07',
      estimuloFranjaFronteriza: estimulo,
      palabrasSimilares: palabras,
    })),
  );
  return STARTER_PRODUCTS.length;
}
