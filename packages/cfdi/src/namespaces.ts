// Namespace URIs that identify CFDI nodes (docs/cfdi.md#reading-a-document). Documents are recognised by
// namespace + local name, never by prefix: prefixes are arbitrary in real files.

export const NS = {
  cfdi40: 'http://www.sat.gob.mx/cfd/4',
  cfdi33: 'http://www.sat.gob.mx/cfd/3',
  tfd: 'http://www.sat.gob.mx/TimbreFiscalDigital',
  pagos20: 'http://www.sat.gob.mx/Pagos20',
  pagos10: 'http://www.sat.gob.mx/Pagos',
  implocal: 'http://www.sat.gob.mx/implocal',
  nomina12: 'http://www.sat.gob.mx/nomina12',
} as const;

/** Elements kept in the tree; everything else (addenda content, other complements) is skipped. */
export const KEPT_NAMESPACES: ReadonlySet<string> = new Set(Object.values(NS));
