import { describe, expect, it } from 'vitest';
import { parseSatMetadata } from './sat-metadata';
import { decideStatus } from './sat-status';

const HEADER =
  'Uuid~RfcEmisor~NombreEmisor~RfcReceptor~NombreReceptor~RfcPac~FechaEmision~FechaCertificacionSat~Monto~EfectoComprobante~Estatus~FechaCancelacion';
const A = '6D7434A6-E3F2-47AD-9E4C-08849946AFA0';
const B = 'a1b2c3d4-e3f2-47ad-9e4c-08849946afa1';

const lines = (text: string) => {
  const parsed = parseSatMetadata(text);
  if ('error' in parsed) throw new Error(parsed.error);
  return parsed.lines;
};

describe('SAT metadata files', () => {
  it('reads CRLF records by header name: status, cancellation date, parties, amount, effect', () => {
    const text = [
      HEADER,
      `${A}~AAA010101AAA~Emisora~BBB010101BBB~Receptora~SAT970701NN3~2025-03-10 12:00:00~2025-03-10 12:01:00~1160.00~I~0~2025-04-02 09:30:00`,
      `${B}~AAA010101AAA~Emisora~BBB010101BBB~Receptora~SAT970701NN3~2025-03-11 08:00:00~2025-03-11 08:01:00~580~Ingreso~1~`,
      '',
    ].join('\r\n');
    expect(lines(text)).toEqual([
      {
        line: 2,
        record: {
          uuid: A,
          estatus: 'cancelado',
          fechaCancelacion: '2025-04-02T09:30:00',
          rfcEmisor: 'AAA010101AAA',
          nombreEmisor: 'Emisora',
          rfcReceptor: 'BBB010101BBB',
          nombreReceptor: 'Receptora',
          fechaEmision: '2025-03-10T12:00:00',
          monto: 1160,
          efecto: 'I',
        },
      },
      {
        line: 3,
        record: expect.objectContaining({
          uuid: B.toUpperCase(),
          estatus: 'vigente',
          fechaCancelacion: null,
          efecto: 'I',
        }),
      },
    ]);
  });

  it('matches columns by name in any order, takes PacCertifico for RfcPac, needs only Uuid, Estatus and FechaCancelacion', () => {
    const text = `Estatus~PacCertifico~FechaCancelacion~Uuid\r\n1~SAT970701NN3~~${A}\r\n`;
    expect(lines(text)).toEqual([
      {
        line: 2,
        record: expect.objectContaining({ uuid: A, estatus: 'vigente', rfcEmisor: null, monto: null }),
      },
    ]);
    expect(parseSatMetadata('Uuid~RfcEmisor~Estatus\r\nx~y~1\r\n')).toEqual({
      error: 'not a SAT metadata file: the header lacks FechaCancelacion',
    });
  });

  it('folds a stray LF inside a name into the field: one record, and the next keeps its own line number', () => {
    const text = [
      HEADER,
      `${A}~AAA010101AAA~Constructora\ndel Norte~BBB010101BBB~Receptora~SAT970701NN3~2025-03-10 12:00:00~2025-03-10 12:01:00~1160.00~I~1~`,
      `${B}~AAA010101AAA~Emisora~BBB010101BBB~Receptora~SAT970701NN3~2025-03-11 08:00:00~2025-03-11 08:01:00~580~I~1~`,
    ].join('\r\n');
    const read = lines(text);
    expect(read).toHaveLength(2);
    expect(read[0]).toMatchObject({ line: 2, record: { nombreEmisor: 'Constructora del Norte' } });
    // The record holding the LF spans lines 2 and 3 of the file.
    expect(read[1]).toMatchObject({ line: 4, record: { uuid: B.toUpperCase() } });
  });

  it('answers each bad line with why, and keeps reading', () => {
    const text = [
      'Uuid~Estatus~FechaCancelacion',
      `${A}~1`,
      'not-a-uuid~1~',
      `${A}~2~`,
      `${A}~0~`,
      `${A}~0~ayer`,
      `${B}~0~02/04/2025 09:30:00`,
    ].join('\r\n');
    expect(lines(text)).toEqual([
      { line: 2, uuid: A, error: '2 fields where the header names 3' },
      { line: 3, error: 'Uuid "NOT-A-UUID" is not a UUID' },
      { line: 4, uuid: A, error: 'Estatus "2" is neither 1 (vigente) nor 0 (cancelado)' },
      { line: 5, uuid: A, error: 'Estatus 0 (cancelado) without FechaCancelacion' },
      { line: 6, uuid: A, error: 'FechaCancelacion "ayer" is not a date' },
      {
        line: 7,
        record: expect.objectContaining({ estatus: 'cancelado', fechaCancelacion: '2025-04-02T09:30:00' }),
      },
    ]);
  });

  it('reads a file re-saved with LF line ends (no CRLF anywhere) one record per line', () => {
    expect(lines(`Uuid~Estatus~FechaCancelacion\n${A}~1~\n${B}~1~\n`)).toHaveLength(2);
  });
});

describe('which source may set a SAT status (tax-rules §1)', () => {
  const unknown = { estatus: 'desconocido', fuente: null, fechaCancelacion: null } as const;
  const satCancel = {
    estatus: 'cancelado',
    fuente: 'metadata',
    fechaCancelacion: '2025-04-02T09:30:00',
  } as const;

  it("SAT's cancelado is final: a later file saying vigente, a consulta, or the user cannot revert it", () => {
    expect(
      decideStatus(satCancel, { estatus: 'vigente', fuente: 'metadata', fechaCancelacion: null }),
    ).toEqual({
      change: false,
      reason: 'final',
    });
    expect(
      decideStatus(satCancel, { estatus: 'vigente', fuente: 'usuario', fechaCancelacion: null }),
    ).toEqual({
      change: false,
      reason: 'final',
    });
    expect(decideStatus(satCancel, { ...satCancel, fuente: 'consulta' })).toEqual({
      change: false,
      reason: 'same',
    });
  });

  it('a substitution presumes only where no source spoke; any SAT source replaces a presumption or a mark', () => {
    const presumed = {
      estatus: 'cancelado',
      fuente: 'sustitucion',
      fechaCancelacion: '2025-03-20T10:00:00',
    } as const;
    expect(decideStatus(unknown, presumed)).toEqual({ change: true, next: presumed });
    const userVigente = { estatus: 'vigente', fuente: 'usuario', fechaCancelacion: null } as const;
    expect(decideStatus(userVigente, presumed)).toEqual({ change: false, reason: 'outranked' });
    const satVigente = { estatus: 'vigente', fuente: 'metadata', fechaCancelacion: null } as const;
    expect(decideStatus(presumed, satVigente)).toEqual({ change: true, next: satVigente });
    expect(decideStatus(satVigente, presumed)).toEqual({ change: false, reason: 'outranked' });
    const userCancel = { estatus: 'cancelado', fuente: 'usuario', fechaCancelacion: '2025-04-01' } as const;
    expect(decideStatus(userCancel, satVigente)).toEqual({ change: true, next: satVigente });
    // The user may still cancel what an older file said vigente (a status only moves to cancelado).
    expect(decideStatus(satVigente, userCancel)).toEqual({ change: true, next: userCancel });
    expect(decideStatus(satVigente, userVigente)).toEqual({ change: false, reason: 'same' });
  });
});
