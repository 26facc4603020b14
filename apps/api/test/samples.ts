import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** The real CFDI samples of this environment (never copied into the project). */
export const SAMPLES_DIR = fileURLToPath(new URL('../../../../shared/data/cfdi-samples/', import.meta.url));
export const haveSamples = existsSync(SAMPLES_DIR);
export const sample = (name: string) => readFileSync(SAMPLES_DIR + name);

/**
 * An unstamped sample with a TimbreFiscalDigital added (UUID `uuid`), so it can be imported; the
 * Pagos 2.0 samples that omit the required IdDocumento get `idDocumento` on their documents.
 */
export function stampedSample(name: string, uuid: string, idDocumento?: string): string {
  const tfd = `<tfd:TimbreFiscalDigital xmlns:tfd="http://www.sat.gob.mx/TimbreFiscalDigital" Version="1.1" UUID="${uuid}" FechaTimbrado="2023-06-13T15:00:00"/>`;
  const xml = sample(name).toString('utf8');
  const stamped = xml.includes('</cfdi:Complemento>')
    ? xml.replace('</cfdi:Complemento>', `${tfd}</cfdi:Complemento>`)
    : xml.replace('</cfdi:Comprobante>', `<cfdi:Complemento>${tfd}</cfdi:Complemento></cfdi:Comprobante>`);
  return idDocumento
    ? stamped.replaceAll(
        '<pago20:DoctoRelacionado ',
        `<pago20:DoctoRelacionado IdDocumento="${idDocumento}" `,
      )
    : stamped;
}
