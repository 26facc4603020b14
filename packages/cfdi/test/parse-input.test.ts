// What parseCfdi tolerates (BOM, stray text, addenda, unknown complements and prefixes) and what it
// refuses (DTDs, malformed XML, other encodings, oversize input, other versions, no timbre).
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { type Cfdi, MAX_CFDI_BYTES, parseCfdi } from '../src';
import { cfdi40, DEFAULT_UUID } from './build-cfdi';

const fixture = (name: string) => readFileSync(new URL(`fixtures/${name}`, import.meta.url));

function ok(input: string | Uint8Array): Cfdi {
  const r = parseCfdi(input);
  if (!r.ok) throw new Error(r.reason);
  return r.cfdi;
}

function reason(input: string | Uint8Array): string {
  const r = parseCfdi(input);
  if (r.ok) throw new Error('expected a rejection');
  return r.reason;
}

const utf8 = (s: string) => new TextEncoder().encode(s);

describe('tolerated', () => {
  it('a UTF-8 BOM as bytes (EF BB BF)', () => {
    expect(ok(new Uint8Array([0xef, 0xbb, 0xbf, ...utf8(cfdi40())])).uuid).toBe(DEFAULT_UUID);
  });

  it('a BOM as U+FEFF at the start of a string', () => {
    expect(ok(`\uFEFF${cfdi40()}`).warnings).toEqual([]);
  });

  it('text before <?xml is dropped with a warning', () => {
    expect(ok(`Archivo descargado del portal\r\n${cfdi40()}`).warnings).toEqual([
      'se ignoró texto antes del inicio del XML',
    ]);
  });

  it('text before <cfdi:Comprobante in a file without XML declaration', () => {
    const noDecl = cfdi40().replace(/^<\?xml[^>]*>/, '');
    expect(ok(`  --junk-- ${noDecl}`).warnings).toEqual(['se ignoró texto antes del inicio del XML']);
  });

  it('text after the root is dropped with a warning', () => {
    expect(ok(`${cfdi40()}\n\u0000garbage`).warnings).toEqual(['se ignoró texto después del final del XML']);
  });

  it('leading and trailing whitespace alone is not a repair', () => {
    expect(ok(`\n\n  ${cfdi40()}\n\n`).warnings).toEqual([]);
  });

  it('an addenda with arbitrary content: other namespaces, undeclared prefixes, CFDI look-alikes', () => {
    const addenda = `<x:Pedido folio="1"><y:Linea/></x:Pedido><cfdi:Emisor Rfc="ZZZ010101ZZ9"/><Texto>a &amp; b</Texto>`;
    const c = ok(cfdi40({ addenda }));
    expect(c.emisor.rfc).toBe('EKU9003173C9');
  });

  it('a timbre inside the addenda does not count as the timbre', () => {
    const addenda = `<tfd:TimbreFiscalDigital xmlns:tfd="http://www.sat.gob.mx/TimbreFiscalDigital" UUID="${DEFAULT_UUID}"/>`;
    expect(reason(cfdi40({ uuid: null, addenda }))).toBe('CFDI sin timbre (no TimbreFiscalDigital UUID)');
  });

  it('unknown complements and namespaces are ignored', () => {
    const complementos =
      '<leyendasFisc:LeyendasFiscales xmlns:leyendasFisc="http://www.sat.gob.mx/leyendasFiscales" version="1.0"><leyendasFisc:Leyenda textoLeyenda="x"/></leyendasFisc:LeyendasFiscales><foo:Bar/>';
    expect(ok(cfdi40({ complementos })).uuid).toBe(DEFAULT_UUID);
  });

  it('namespaces are matched by URI, not prefix: default namespace and an unusual prefix', () => {
    const unprefixed = cfdi40().replaceAll('cfdi:', '').replace('xmlns:cfdi=', 'xmlns=');
    expect(ok(unprefixed).total).toBe(1160);
    const otherPrefix = cfdi40().replaceAll('cfdi:', 'c:').replace('xmlns:cfdi=', 'xmlns:c=');
    expect(ok(otherPrefix).total).toBe(1160);
  });

  it('xmlns:schemaLocation instead of xsi:schemaLocation (seen in SAT downloads)', () => {
    const xml = cfdi40().replace(
      'Version="4.0"',
      'xmlns:schemaLocation="http://www.sat.gob.mx/cfd/4 http://www.sat.gob.mx/sitio_internet/cfd/4/cfdv40.xsd" Version="4.0"',
    );
    expect(ok(xml).version).toBe('4.0');
  });

  it('a timbre that declares its namespace on a parent element', () => {
    const xml = cfdi40({ uuid: null })
      .replace('xmlns:cfdi=', 'xmlns:tfd="http://www.sat.gob.mx/TimbreFiscalDigital" xmlns:cfdi=')
      .replace(
        '</cfdi:Comprobante>',
        '<cfdi:Complemento><tfd:TimbreFiscalDigital UUID="a1b2c3d4-0000-4000-8000-00000000000a" FechaTimbrado="2024-05-02T10:00:00"/></cfdi:Complemento></cfdi:Comprobante>',
      );
    expect(ok(xml).uuid).toBe(DEFAULT_UUID);
  });
});

describe('refused: DTD and entities', () => {
  it('billion laughs (nested internal entities)', () => {
    expect(reason(fixture('billion-laughs.xml'))).toBe('DTD/entidades no permitidas (<!DOCTYPE>)');
  });

  it('XXE (external SYSTEM entity)', () => {
    expect(reason(fixture('xxe-system.xml'))).toBe('DTD/entidades no permitidas (<!DOCTYPE>)');
  });

  it('any DOCTYPE, even without an internal subset', () => {
    const xml = cfdi40().replace('?>', '?><!DOCTYPE cfdi:Comprobante SYSTEM "http://example.com/cfdi.dtd">');
    expect(reason(xml)).toBe('DTD/entidades no permitidas (<!DOCTYPE>)');
  });

  it('an entity reference that is not one of the five predefined ones', () => {
    expect(reason(cfdi40().replace('Nombre="ESCUELA', 'Nombre="&nbsp;ESCUELA'))).toMatch(
      /^XML mal formado: /,
    );
  });
});

describe('refused: malformed XML', () => {
  it('an unescaped & in an attribute', () => {
    expect(reason(cfdi40({ emisor: { rfc: 'H&E951128469' } }))).toMatch(/^XML mal formado: /);
  });

  it('an unclosed tag', () => {
    expect(reason(cfdi40().replace('</cfdi:Conceptos>', ''))).toMatch(/^XML mal formado: /);
  });

  it('a truncated file', () => {
    const xml = cfdi40();
    expect(reason(xml.slice(0, xml.indexOf('<cfdi:Conceptos>') + 20))).toMatch(/^XML mal formado: /);
  });

  it('two root elements', () => {
    expect(reason(`${cfdi40()}<otro/>`)).toMatch(/^XML mal formado: /);
  });

  it('a duplicated attribute', () => {
    expect(reason(cfdi40().replace('Serie="F"', 'Serie="F" Serie="G"'))).toMatch(/^XML mal formado: /);
  });

  it('no XML at all', () => {
    expect(reason('')).toBe('XML mal formado: el archivo no contiene XML');
    expect(reason('hola')).toBe('XML mal formado: el archivo no contiene XML');
  });
});

describe('refused: encoding and size', () => {
  it('a declared encoding other than UTF-8 (not transcoded)', () => {
    const latin = cfdi40().replace('encoding="UTF-8"', 'encoding="ISO-8859-1"');
    expect(reason(latin)).toBe('codificación no soportada: ISO-8859-1 (un CFDI debe estar en UTF-8)');
    expect(reason(utf8(latin))).toBe('codificación no soportada: ISO-8859-1 (un CFDI debe estar en UTF-8)');
  });

  it('bytes that are not valid UTF-8 (a Latin-1 ñ under a UTF-8 declaration)', () => {
    const bytes = utf8(cfdi40().replace('CARLOS', 'PE?A'));
    bytes[bytes.indexOf(0x3f)] = 0xf1;
    expect(reason(bytes)).toBe('codificación inválida: el archivo no es UTF-8 válido');
  });

  it('utf-8 spelled in lower case is fine', () => {
    expect(ok(cfdi40().replace('encoding="UTF-8"', 'encoding="utf-8"')).version).toBe('4.0');
  });

  it('more than 5 MB, as bytes or as text', () => {
    const padding = ' '.repeat(MAX_CFDI_BYTES);
    // The one message every route gives (apps/api uploads, tRPC), not a second wording here.
    expect(reason(utf8(cfdi40() + padding))).toBe('XML exceeds 5 MB');
    expect(reason(cfdi40() + padding)).toBe('XML exceeds 5 MB');
    // 2 M characters of "ñ" are 4 MB of UTF-8: under the limit by bytes, checked by bytes.
    expect(parseCfdi(cfdi40({ addenda: 'ñ'.repeat(2_000_000) })).ok).toBe(true);
    expect(reason(cfdi40({ addenda: 'ñ'.repeat(2_700_000) }))).toBe('XML exceeds 5 MB');
  });
});

describe('refused: not a supported CFDI', () => {
  it('CFDI 3.2 (lower-case version attribute)', () => {
    const v32 = cfdi40()
      .replace('http://www.sat.gob.mx/cfd/4', 'http://www.sat.gob.mx/cfd/3')
      .replace('Version="4.0"', 'version="3.2"');
    expect(reason(v32)).toBe('versión no soportada: 3.2');
  });

  it('CFDI de retenciones', () => {
    expect(reason(fixture('retenciones-20.xml'))).toBe(
      'versión no soportada: CFDI de retenciones e información de pagos (http://www.sat.gob.mx/esquemas/retencionpago/2)',
    );
  });

  it('any other root element', () => {
    expect(reason('<html><body/></html>')).toBe(
      'versión no soportada: no es un CFDI (elemento raíz html sin espacio de nombres)',
    );
  });

  it('a version that does not match its namespace', () => {
    expect(reason(cfdi40().replace('Version="4.0"', 'Version="3.3"'))).toBe('versión no soportada: 3.3');
  });

  it('the cfdi prefix without its namespace declaration is not a CFDI', () => {
    expect(reason(cfdi40().replace(' xmlns:cfdi="http://www.sat.gob.mx/cfd/4"', ''))).toBe(
      'versión no soportada: no es un CFDI (elemento raíz Comprobante sin espacio de nombres)',
    );
  });

  it('no TimbreFiscalDigital', () => {
    expect(reason(cfdi40({ uuid: null }))).toBe('CFDI sin timbre (no TimbreFiscalDigital UUID)');
  });

  it('a timbre without UUID', () => {
    expect(reason(cfdi40({ uuid: '' }))).toBe('CFDI sin timbre (no TimbreFiscalDigital UUID)');
  });

  it('a timbre with a malformed UUID', () => {
    expect(reason(cfdi40({ uuid: 'not-a-uuid' }))).toBe(
      'UUID inválido en TimbreFiscalDigital@UUID: "NOT-A-UUID"',
    );
  });
});
