import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parse } from 'csv-parse/sync';
import { asc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DbHandle } from './client';
import { fiscalRegimes } from './schema';
import { seedReferenceData } from './seed';
import { testDb } from './testing/vitest';

let handle: DbHandle;
beforeAll(async () => {
  handle = await testDb();
});
afterAll(async () => {
  await handle?.close();
});

const allRegimes = () => handle.db.select().from(fiscalRegimes).orderBy(asc(fiscalRegimes.clave));
const regime = async (clave: string) =>
  (await handle.db.select().from(fiscalRegimes).where(eq(fiscalRegimes.clave, clave)))[0];

describe('seeded fiscal_regimes (c_RegimenFiscal, CFDI 4.0)', () => {
  it('holds exactly the 19 current regimes', async () => {
    const rows = await allRegimes();
    expect(rows.map((r) => r.clave)).toEqual(
      '601 603 605 606 607 608 610 611 612 614 615 616 620 621 622 623 624 625 626'.split(' '),
    );
    for (const r of rows) {
      expect(r.descripcion.trim()).not.toBe('');
      expect(r.fechaInicioVigencia).toBe('2022-01-01');
      expect(r.fechaFinVigencia).toBeNull();
      expect(r.aplicaPersonaFisica || r.aplicaPersonaMoral).toBe(true);
    }
  });

  it('601 applies to personas morales only', async () => {
    expect(await regime('601')).toMatchObject({
      descripcion: 'General de Ley Personas Morales',
      aplicaPersonaFisica: false,
      aplicaPersonaMoral: true,
    });
  });

  it('605 applies to personas físicas only', async () => {
    expect(await regime('605')).toMatchObject({
      descripcion: 'Sueldos y Salarios e Ingresos Asimilados a Salarios',
      aplicaPersonaFisica: true,
      aplicaPersonaMoral: false,
    });
  });

  it('626 (RESICO) applies to both', async () => {
    expect(await regime('626')).toMatchObject({
      descripcion: 'Régimen Simplificado de Confianza',
      aplicaPersonaFisica: true,
      aplicaPersonaMoral: true,
    });
  });

  it('seeding again is idempotent: same 19 rows, unchanged', async () => {
    const before = await allRegimes();
    await seedReferenceData(handle.db);
    await seedReferenceData(handle.db);
    expect(await allRegimes()).toEqual(before);
  });

  it('seeding again restores an edited description and flags', async () => {
    const original = await regime('612');
    await handle.db
      .update(fiscalRegimes)
      .set({ descripcion: 'edited', aplicaPersonaFisica: false, aplicaPersonaMoral: true })
      .where(eq(fiscalRegimes.clave, '612'));
    await seedReferenceData(handle.db);
    expect(await regime('612')).toEqual(original);
  });
});

// The published SAT list, shipped in packages/db/data (SOURCES.md there says where it comes from).
const regimesCsv = fileURLToPath(new URL('../data/c_regimenfiscal.csv', import.meta.url));

describe('seeded fiscal_regimes against the SAT list', () => {
  it('match packages/db/data/c_regimenfiscal.csv row for row', async () => {
    const csv = parse(readFileSync(regimesCsv), { bom: true, columns: true }) as Record<string, string>[];
    expect(
      (await allRegimes()).map((r) => ({
        clave: r.clave,
        descripcion: r.descripcion,
        fisica: r.aplicaPersonaFisica,
        moral: r.aplicaPersonaMoral,
      })),
    ).toEqual(
      csv
        .map((r) => ({
          clave: r.clave,
          descripcion: r.descripcion,
          fisica: r.aplica_persona_fisica === 'true',
          moral: r.aplica_persona_moral === 'true',
        }))
        .sort((a, b) => a.clave!.localeCompare(b.clave!)),
    );
  });
});
