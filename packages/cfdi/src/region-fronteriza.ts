// The border regions where IVA is 8 % (Decreto de estímulos fiscales región fronteriza norte, DOF
// 31-12-2018, extended in 2020 and 2024; región fronteriza sur, DOF 30-12-2020), told from a CFDI's
// LugarExpedicion: docs/diot.md ("Columns kept apart").
//
// SAT's c_CodigoPostal catalog marks each postal code's municipality; Folio ships only the ranges
// whose whole municipality is in a region: the postal codes of Baja California (21000–22999, every
// municipality of the state is in the región fronteriza norte). Any other postal code answers null
// (unknown): the DIOT then asks the user for the supplier's region.

export type RegionFronteriza = 'norte' | 'sur';

const RANGES: ReadonlyArray<readonly [from: number, to: number, region: RegionFronteriza]> = [
  [21000, 22999, 'norte'],
];

/** The border region of a 5-digit postal code, or null when Folio does not know it as one. */
export function regionFronteriza(codigoPostal: string | null | undefined): RegionFronteriza | null {
  if (!codigoPostal || !/^\d{5}$/.test(codigoPostal)) return null;
  const cp = Number(codigoPostal);
  for (const [from, to, region] of RANGES) if (cp >= from && cp <= to) return region;
  return null;
}
