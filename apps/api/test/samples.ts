import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** The real CFDI samples of this environment (never copied into the project). */
export const SAMPLES_DIR = fileURLToPath(new URL('../../../../shared/data/cfdi-samples/', import.meta.url));
export const haveSamples = existsSync(SAMPLES_DIR);
export const sample = (name: string) => readFileSync(SAMPLES_DIR + name);
