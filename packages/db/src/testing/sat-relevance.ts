/**
 * Real-world catalog queries with the code a taxpayer expects among the first five results; shared by
 * the relevance test and bench/sat-search.
 */
export const SAT_RELEVANCE: [query: string, code: string][] = [
  ['computadora', '43211500'],
  ['Computadoras', '43211500'],
  ['laptop', '43211508'], // only in palabras_similares
  ['gasolina', '15101514'],
  ['gasolina premium', '15101515'],
  ['diesel', '15101505'],
  ['servicios contables', '84111500'],
  ['honorarios contables', '84111500'], // only in palabras_similares
  ['hotel', '90111500'],
  ['restaurantes', '90101501'],
  ['uniforme', '53102700'],
  ['cerveza', '50202201'],
  ['telefonia celular', '83111603'],
  ['teléfonos móviles', '43191501'],
  ['transporte de carga por carretera', '78101800'],
  ['agua embotellada', '50202301'],
  ['publicidad impresa', '82101500'],
  ['seguro de automoviles', '84131503'],
  ['CEMENTO', '30111601'],
  ['llantas para automóviles', '25172504'],
  ['consultoría de negocios', '80101500'],
  ['articulos de papeleria', '44121600'], // only in palabras_similares
  ['arrendamiento de oficinas', '80131505'],
  ['vinos', '50202203'],
  ['renta de oficinas', '80131505'], // only in palabras_similares
];
