/**
 * Trade vocabulary added for issue 30, in the same form as lexicon.ts (folded keys, catalog words as
 * values): words of whole trades and regions, synonyms the catalog lacks, taken from the tuning half
 * of the second relevance set (bench/sat-ai/tuning.ts) and from general knowledge of the trades.
 * Never from the held-out half: meaning/lexicon.test.ts fails when a key shares a word (by stem) with
 * any held-out query, which keeps that half a measure of what the search makes of words it was not
 * taught.
 */
export const TRADE_LEXICON: Record<string, string> = {
  // Building trades
  tablaroca: 'drywall pañetado',
  durock: 'drywall pañetado',
  azulejo: 'baldosas cerámica azulejos',
  azulejos: 'baldosas cerámica azulejos',
  loseta: 'baldosas cerámica',
  colado: 'concreto hormigón',
  losa: 'concreto',
  firme: 'concreto',
  closet: 'carpintería armarios',
  closets: 'carpintería armarios',
  carpintero: 'carpintería',
  vidriero: 'vidrios ventanería',
  vidrios: 'vidrios ventanería',
  canceles: 'vidrios ventanería',
  cancel: 'vidrios ventanería',
  aluminio: 'ventanería aluminio',
  fontanero: 'plomería',
  yesero: 'pañetado yeso',
  andamios: 'andamiaje andamios',
  // Vehicles
  vulcanizadora: 'llantas neumáticos reparación',
  talachas: 'llantas neumáticos reparación',
  // Food and drink
  licuados: 'jugo fresco bebidas',
  licuado: 'jugo fresco bebidas',
  'leche bronca': 'leche cruda leche de vaca',
  puerco: 'cerdos',
  puercos: 'cerdos',
  marrano: 'cerdos',
  marranos: 'cerdos',
  ponedoras: 'gallinas pollos vivos aves de corral',
  cana: 'caña de azúcar',
  ingenio: 'caña de azúcar',
  grano: 'granos',
  birria: 'restaurantes comida',
  pozole: 'restaurantes comida',
  antojitos: 'vendedores callejeros de alimentos',
  // Professional services
  administro: 'administración',
  inventarios: 'software programación inventarios',
  'community manager': 'publicidad internet promoción',
  marketing: 'publicidad promoción mercadeo',
  mercadotecnia: 'publicidad promoción mercadeo',
  // Health: a specialist's title → the catalog's specialist doctors
  ginecologo: 'ginecología obstetricia servicios médicos de doctores especialistas',
  ginecologa: 'ginecología obstetricia servicios médicos de doctores especialistas',
  cardiologo: 'cardiología servicios médicos de doctores especialistas',
  cardiologa: 'cardiología servicios médicos de doctores especialistas',
  pediatra: 'pediatría servicios médicos de doctores especialistas',
  dermatologo: 'dermatología servicios médicos de doctores especialistas',
  dermatologa: 'dermatología servicios médicos de doctores especialistas',
  oftalmologo: 'oftalmología servicios médicos de doctores especialistas',
  'limpieza dental': 'servicios dentales odontólogos',
  blanqueamiento: 'servicios dentales odontólogos',
  ortodoncia: 'servicios dentales ortodoncia',
  brackets: 'servicios dentales ortodoncia',
  'terapia fisica': 'fisioterapia rehabilitación',
  fisioterapeuta: 'fisioterapia rehabilitación',
  // Education
  computacion: 'capacitación computadoras informática',
  prepa: 'bachillerato',
  preparatoria: 'bachillerato',
  // Personal care
  cabello: 'pelo',
  caballero: 'corte de pelo',
  'corte de cabello': 'corte y tinte de pelo',
  // Events and storage
  'quince anos': 'banquetes eventos reuniones',
  'xv anos': 'banquetes eventos reuniones',
  lona: 'carpas para fiestas',
  lonas: 'carpas para fiestas',
  minibodegas: 'almacenamiento bodegaje bienes',
  minibodega: 'almacenamiento bodegaje bienes',
  muebles: 'muebles mobiliario',
};
