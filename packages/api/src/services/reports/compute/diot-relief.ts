import type { ReportProfile } from './monthly';

/**
 * Who must file (LIVA 32-VIII): personas morales always. The RMF relieves personas físicas in
 * RESICO and, under a revenue threshold of the previous year, those in 612 and 606; Folio
 * generates the file anyway and says so.
 */
export function reliefWarnings(profile: ReportProfile): string[] {
  if (profile.tipoPersona !== 'FISICA') return [];
  const r = profile.regimenesFiscales;
  if (r.includes('626')) {
    return ['Persona física en RESICO: la Resolución Miscelánea Fiscal la releva de presentar la DIOT'];
  }
  if (r.includes('612') || r.includes('606')) {
    return [
      'Persona física en régimen 612 o 606: la Resolución Miscelánea Fiscal la releva de presentar la DIOT ' +
        'si sus ingresos del año anterior no excedieron el límite que fija; Folio no lo sabe',
    ];
  }
  return [];
}
