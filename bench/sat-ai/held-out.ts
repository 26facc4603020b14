/**
 * HELD-OUT half of the second colloquial set (issue 30): what Mexican taxpayers sell and buy, said
 * the way they say it, with the c_ClaveProdServ codes a contador would accept (each checked against
 * the catalog). Written and committed before any tuning; the search is never tuned on it. Rules:
 * - no word or phrase of these queries may become a lexicon key (packages/api/test/sat-ai-sets.test.ts
 *   checks the lexicon's additions, meaning/lexicon-trades.ts, against this file);
 * - no query is edited after its first measurement, and its misses are not studied one by one.
 * Its twin, tuning.ts, is the half the lexicon may learn from. bench/sat-ai reports both apart.
 */
import type { AiRelevanceCase } from '../../packages/api/test/fixtures/sat-ai-relevance';

export const SAT_AI_HELD_OUT: AiRelevanceCase[] = [
  // Building trades
  {
    query: 'pinté la casa de un cliente',
    codes: ['72151300', '72151301'],
    reason: 'residential painting service',
  },
  {
    query: 'le doy mantenimiento a los minisplits de una oficina',
    codes: ['72151200', '72151207', '72101511'],
    reason: 'air-conditioning installation and maintenance (HVAC)',
  },
  {
    query: 'impermeabilicé la azotea de una casa',
    codes: ['72153200', '72153204', '72153209', '72152601'],
    reason: 'waterproofing service (or roofing)',
  },
  {
    query: 'puse piso de cerámica en un baño',
    codes: ['72152500', '72152504', '72152200', '72152204'],
    reason: 'ceramic floor tile installation',
  },
  {
    query: 'levanté una barda de block en un terreno',
    codes: ['72151900', '72151905'],
    reason: 'masonry with concrete blocks',
  },
  {
    query: 'le cambié todo el cableado eléctrico a un local',
    codes: ['72151500', '72151501'],
    reason: 'electrical installation services',
  },
  {
    query: 'arreglé una fuga de agua en la tubería de un departamento',
    codes: ['72101510', '72151100'],
    reason: 'plumbing repair',
  },
  {
    query: 'vendo block y cemento para obra',
    codes: ['30131502', '30111601', '30111600'],
    reason: 'concrete blocks, cement',
  },
  {
    query: 'hice un portón de herrería',
    codes: ['73121602', '72152900'],
    reason: 'blacksmith/ironwork services',
  },
  {
    query: 'construí una casa de dos pisos',
    codes: ['72111000', '72111006'],
    reason: 'single-family home construction',
  },
  {
    query: 'remodelé la cocina de un departamento',
    codes: ['72153600', '72111001', '72111002'],
    reason: 'interior finishing and remodelling',
  },
  // Repair
  {
    query: 'reparé una computadora que ya no prendía',
    codes: ['81112300', '81112307', '81111812'],
    reason: 'PC hardware maintenance and support',
  },
  {
    query: 'tapicé los sillones de una sala',
    codes: ['73111505', '76111505'],
    reason: 'furniture upholstery (similar words of 73111505)',
  },
  {
    query: 'compuse unos zapatos de piel',
    codes: ['73141710'],
    reason: 'leather footwear repair (similar words of 73141710)',
  },
  {
    query: 'le hice servicio a la impresora de un despacho',
    codes: ['81112306', '81112300'],
    reason: 'printer maintenance',
  },
  { query: 'cambié la chapa de una puerta', codes: ['72101505', '91111600'], reason: 'locksmith services' },
  // Vehicles and transport
  {
    query: 'le hice el cambio de aceite a una camioneta de reparto',
    codes: ['78181503', '78181500', '78181507'],
    reason: 'oil change / vehicle maintenance',
  },
  {
    query: 'alineación y balanceo de un coche',
    codes: ['78181500', '78181507'],
    reason: 'car maintenance and repair',
  },
  {
    query: 'llevé mercancía de Guadalajara a Monterrey en mi tráiler',
    codes: ['78101800', '78101802'],
    reason: 'regional road freight',
  },
  { query: 'compré diésel para los camiones', codes: ['15101505'], reason: 'diesel fuel' },
  {
    query: 'pagué la caseta de la autopista',
    codes: ['95111602', '95111603'],
    reason: 'toll road fee (lexicon has caseta since before)',
  },
  { query: 'renté un montacargas por una semana', codes: ['78121604'], reason: 'forklift rental' },
  {
    query: 'entrego paquetes en moto por la ciudad',
    codes: ['78102205', '78102200', '78102203'],
    reason: 'local courier and parcels',
  },
  {
    query: 'transporte escolar para niños de primaria',
    codes: ['78111802', '78111803'],
    reason: 'chartered or scheduled buses',
  },
  // Food and drink
  {
    query: 'vendo tamales y atole en la esquina',
    codes: ['90101504', '50221300'],
    reason: 'street food vendors (similar words list antojitos, tamales)',
  },
  { query: 'vendo aguacate hass por caja', codes: ['50401700'], reason: 'avocados' },
  { query: 'vendo miel de abeja de mi rancho', codes: ['50192403'], reason: '"Miel"' },
  {
    query: 'surto huevo blanco a las tienditas',
    codes: ['50131612', '50131600'],
    reason: 'hen eggs in shell',
  },
  {
    query: 'vendo pollo entero y en piezas',
    codes: ['50111515', '50111520', '50112010', '50112011'],
    reason: 'chicken meat',
  },
  {
    query: 'vendo camarón fresco a restaurantes',
    codes: ['50121611', '10101801'],
    reason: 'fresh seafood / live shrimp',
  },
  {
    query: 'hice la comida para una graduación de 200 personas',
    codes: ['90101600', '90101603'],
    reason: 'catering',
  },
  {
    query: 'tengo una lonchería',
    codes: ['90101500', '90101503', '90101501'],
    reason: 'eating establishments',
  },
  { query: 'vendo masa y tortillas de maíz', codes: ['50221300'], reason: 'mill products: masa, tortillas' },
  // Agriculture
  {
    query: 'vendí unos becerros de engorda',
    codes: ['10101516', '10101500'],
    reason: 'live cattle',
  },
  {
    query: 'le fumigué la siembra a un ejidatario',
    codes: ['70141601', '70141600'],
    reason: 'crop spraying',
  },
  {
    query: 'compré urea para la milpa',
    codes: ['10171601', '10171600'],
    reason: 'nitrogen fertiliser',
  },
  {
    query: 'barbecho y rastreo terrenos con mi tractor',
    codes: ['70131603', '70131600'],
    reason: 'ploughing services',
  },
  {
    query: 'vendo semilla de maíz para sembrar',
    codes: ['10151513', '10151609'],
    reason: 'maize seed',
  },
  // Professional services
  {
    query: 'le hice la declaración anual a un doctor',
    codes: ['84111800', '84111801', '84111802', '84111500'],
    reason: 'tax preparation services',
  },
  {
    query: 'llevo la contabilidad de varias tiendas',
    codes: ['84111500', '84111502'],
    reason: 'accounting services',
  },
  {
    query: 'defendí a un trabajador en una demanda laboral',
    codes: ['80121706', '80121707', '80121700'],
    reason: 'labour-law legal services',
  },
  {
    query: 'hice los planos de una casa',
    codes: ['81101508', '81101502', '81101500'],
    reason: 'architectural engineering / technical drawing',
  },
  {
    query: 'diseñé el logo y las tarjetas de una cafetería',
    codes: ['82141500', '82141502', '82141504'],
    reason: 'graphic design',
  },
  {
    query: 'traduje unos documentos del inglés al español',
    codes: ['82111804', '82111800'],
    reason: 'written translation',
  },
  {
    query: 'auditoría de los estados financieros de una empresa',
    codes: ['84111600', '84111601'],
    reason: 'audit services',
  },
  {
    query: 'busco personal para una fábrica y cobro por cada contratación',
    codes: ['80111700', '80111701'],
    reason: 'staff recruitment',
  },
  // Software and IT
  {
    query: 'desarrollo una app para android e iphone',
    codes: ['81111500', '81111504', '81111509', '81112000'],
    reason: 'application programming',
  },
  {
    query: 'le hice una tienda en línea a una boutique',
    codes: ['81111509', '81111500', '81112103', '81112100'],
    reason: 'internet application development / web design',
  },
  {
    query: 'instalé cámaras de seguridad en una bodega',
    codes: ['72151702', '46171610', '72151700'],
    reason: 'CCTV installation',
  },
  {
    query: 'configuré la red y el wifi de una oficina',
    codes: ['81111803', '81111702', '81111800'],
    reason: 'LAN design and support',
  },
  {
    query: 'vendo licencias de antivirus',
    codes: ['43233205', '43233200', '81112500'],
    reason: 'security / antivirus software',
  },
  // Health
  {
    query: 'consulta con la nutrióloga',
    codes: ['85151600', '85151601', '85151607'],
    reason: 'nutrition services',
  },
  {
    query: 'le saqué una muela a un paciente',
    codes: ['85122000', '85122001', '85122004'],
    reason: 'dental services',
  },
  {
    query: 'sesiones de rehabilitación por una lesión de rodilla',
    codes: ['85122101', '85122100'],
    reason: 'physiotherapy / rehabilitation',
  },
  {
    query: 'hago estudios de sangre en mi laboratorio',
    codes: ['85121801', '85121800'],
    reason: 'blood test laboratories',
  },
  {
    query: 'vendo lentes graduados',
    codes: ['42142901', '42142902', '42142900'],
    reason: 'eyeglasses and lenses',
  },
  // Education
  {
    query: 'doy clases de regularización de matemáticas',
    codes: ['86141501', '86141500'],
    reason: 'private tutors (similar words of 86141501)',
  },
  {
    query: 'clases de guitarra para niños',
    codes: ['86131601', '86131600'],
    reason: 'music schools',
  },
  {
    query: 'enseño a manejar en mi carro',
    codes: ['86131701', '86131700'],
    reason: 'driving school',
  },
  {
    query: 'pagué la inscripción de la universidad',
    codes: ['86121700', '86121701', '86121702'],
    reason: 'universities (similar words: colegiaturas)',
  },
  // Beauty and personal care
  { query: 'pongo uñas de acrílico', codes: ['91101600', '91101601', '53131617'], reason: 'manicure' },
  {
    query: 'maquillé y peiné a una novia',
    codes: ['91101602', '91101700', '91101600'],
    reason: 'make-up, hair care',
  },
  {
    query: 'hago tatuajes',
    codes: ['91101603'],
    reason: '"Servicios de tatuajes"',
  },
  { query: 'vendo perfumes por catálogo', codes: ['53131620'], reason: 'perfumes' },
  // Events
  {
    query: 'renté un salón para la fiesta de mi hija',
    codes: ['90111603', '90111600', '90101601'],
    reason: 'banquet halls',
  },
  {
    query: 'toco con mi banda en bodas',
    codes: ['90131500', '90131504'],
    reason: 'live performances',
  },
  {
    query: 'renta de trajes para graduación',
    codes: ['91101800', '91101801'],
    reason: 'clothing rental',
  },
  // Rent and lodging
  {
    query: 'le rento una oficina a un despacho de abogados',
    codes: ['80131502', '80131500'],
    reason: 'renting commercial premises',
  },
  {
    query: 'le rento un cuarto a un estudiante',
    codes: ['80131501', '80131500'],
    reason: 'residential rental',
  },
  {
    query: 'rento mi terreno para sembrar',
    codes: ['80131503', '80131500'],
    reason: 'land rental',
  },
  // Cleaning and household
  {
    query: 'lavo y plancho ropa ajena',
    codes: ['91111500', '91111502'],
    reason: 'laundry services',
  },
  {
    query: 'limpio alfombras y salas a domicilio',
    codes: ['76111505', '76111600', '72101508'],
    reason: 'upholstery and carpet cleaning',
  },
  {
    query: 'recojo la basura de un fraccionamiento',
    codes: ['76121500', '76121501', '76121600'],
    reason: 'waste collection',
  },
  {
    query: 'le doy mantenimiento al jardín de una casa',
    codes: ['72102902', '70111700', '70111703'],
    reason: 'gardening / landscaping',
  },
  // Goods
  { query: 'vendo cartuchos de tinta para impresora', codes: ['44103105'], reason: 'ink cartridges' },
  {
    query: 'vendo croquetas para perro',
    codes: ['10121800', '10121801'],
    reason: 'dog and cat food',
  },
  {
    query: 'vendo cuadernos y plumas a una escuela',
    codes: ['44121600', '44121700', '14111514', '44121701'],
    reason: 'office and school supplies, writing instruments',
  },
  { query: 'surto gas lp a domicilio', codes: ['15111510'], reason: 'LPG' },
  {
    query: 'vendo bicicletas de montaña',
    codes: ['25161500', '25161507'],
    reason: 'bicycles',
  },
];
