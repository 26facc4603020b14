// What the database cannot hold is refused by the parser with a reason, never stored: amounts within
// numeric(18,6), Fecha/FechaPago per t_FechaH, names ≤ 254 characters, other attributes ≤ 1,000,
// UUIDs that go into indexed columns per t_UUID (issue 12).
import { describe, expect, it } from 'vitest';
import { parseCfdi } from '../src';
import { cfdi40, rep20 } from './build-cfdi';

function reason(input: string): string {
  const r = parseCfdi(input);
  if (r.ok) throw new Error('expected a rejection');
  return r.reason;
}

const withTasa = (tasa: string) => cfdi40().replaceAll('TasaOCuota="0.160000"', `TasaOCuota="${tasa}"`);
const DOCTO =
  'IdDocumento="A1B2C3D4-0000-4000-8000-00000000000A" MonedaDR="MXN" NumParcialidad="1" ImpSaldoAnt="100" ImpPagado="100" ImpSaldoInsoluto="0"';

describe('values the database cannot hold are refused with a reason', () => {
  it('an amount of 12 integer digits or more (SubTotal 1e15)', () => {
    expect(reason(cfdi40({ subTotal: '1000000000000000' }))).toBe(
      'valor fuera de rango en Comprobante@SubTotal: 1000000000000000 (máximo < 1000000000000)',
    );
    expect(parseCfdi(cfdi40({ subTotal: '999999999999.99', total: '1160.00' })).ok).toBe(true);
  });

  it('an IVA rate over 100 % (TasaOCuota 1000)', () => {
    expect(reason(withTasa('1000'))).toBe('TasaOCuota de IVA fuera de rango: 1000');
  });

  it('a 6,000-character Fecha, and a FechaPago that is not t_FechaH', () => {
    expect(reason(cfdi40({ fecha: `2024-05-01T12:00:00${'0'.repeat(5981)}` }))).toBe(
      'Comprobante@Fecha excede 1000 caracteres (6000)',
    );
    expect(reason(cfdi40({ fecha: '2024-05-01T12:00:00.000-06:00' }))).toBe(
      'Fecha inválida: "2024-05-01T12:00:00.000-06:00"',
    );
    const rep = rep20([DOCTO], 'FechaPago="2024-06-01" FormaDePagoP="03" MonedaP="MXN" Monto="100.00"');
    expect(reason(rep)).toBe('FechaPago inválida: "2024-06-01"');
  });

  it('an Emisor or Receptor Nombre over 254 characters', () => {
    const long = 'A'.repeat(255);
    expect(reason(cfdi40().replace('ESCUELA KEMPER URGATE', long))).toBe(
      'Emisor@Nombre excede 254 caracteres (255)',
    );
    expect(reason(cfdi40().replace('CARLOS CORTES SOTO', 'B'.repeat(1_000_000)))).toBe(
      'Receptor@Nombre excede 254 caracteres (1000000)',
    );
    expect(parseCfdi(cfdi40().replace('ESCUELA KEMPER URGATE', 'A'.repeat(254))).ok).toBe(true);
  });

  it('any other attribute over 1,000 characters (Descripcion), an RFC over 13', () => {
    expect(reason(cfdi40().replace('Descripcion="Servicio"', `Descripcion="${'x'.repeat(1001)}"`))).toBe(
      'Concepto@Descripcion excede 1000 caracteres (1001)',
    );
    expect(reason(cfdi40({ emisor: { rfc: 'EKU9003173C9XXXX' } }))).toBe(
      'Emisor@Rfc excede 13 caracteres (16)',
    );
  });

  it('a related or paid document whose UUID is not a UUID', () => {
    expect(reason(rep20([DOCTO.replace('A1B2C3D4-0000-4000-8000-00000000000A', 'x'.repeat(3000))]))).toBe(
      'DoctoRelacionado@IdDocumento excede 1000 caracteres (3000)',
    );
    expect(reason(rep20([DOCTO.replace('A1B2C3D4-0000-4000-8000-00000000000A', 'F-1')]))).toBe(
      'UUID inválido en DoctoRelacionado@IdDocumento: "F-1"',
    );
    const related =
      '<cfdi:CfdiRelacionados TipoRelacion="01"><cfdi:CfdiRelacionado UUID="nope"/></cfdi:CfdiRelacionados>';
    expect(reason(cfdi40({ body: related + cfdi40Body() }))).toBe(
      'UUID inválido en CfdiRelacionado@UUID: "NOPE"',
    );
  });

  it('a NumParcialidad past an integer column', () => {
    expect(reason(rep20([DOCTO.replace('NumParcialidad="1"', 'NumParcialidad="99999999999"')]))).toBe(
      'valor fuera de rango en DoctoRelacionado@NumParcialidad: 99999999999 (máximo < 1000000000)',
    );
  });
});

// The default concept and taxes of cfdi40(), for a body that adds nodes before them.
function cfdi40Body(): string {
  const xml = cfdi40();
  return xml.slice(xml.indexOf('<cfdi:Conceptos>'), xml.indexOf('<cfdi:Complemento>'));
}
