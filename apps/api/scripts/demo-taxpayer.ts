// The demo taxpayer of samples/cfdi (written by scripts/samples.ts, imported by scripts/demo.ts).
import { fileURLToPath } from 'node:url';

/** samples/cfdi at the repository's root. */
export const SAMPLES_DIR = fileURLToPath(new URL('../../../samples/cfdi/', import.meta.url));

/** A graphic designer, persona física in the Régimen Simplificado de Confianza (626). */
export const DEMO_TAXPAYER = {
  nombre: 'Mariana López Ruiz',
  rfc: 'LORM850312QK7',
  tipo_persona: 'FISICA',
  regimenes_fiscales: ['626'],
} as const;

/** The file of the folder that is refused on purpose (samples/cfdi/README.md says why). */
export const BAD_SAMPLE = '2026-09-20-gasto-borrador-sin-timbre.xml';
