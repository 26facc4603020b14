/**
 * TUNING half of the second colloquial set (issue 30), written after held-out.ts was committed and
 * in the same way: what Mexican taxpayers sell and buy, in their words, with the c_ClaveProdServ
 * codes a contador would accept (each checked against the catalog). This half, the project's first
 * set and general knowledge of the trades are what the lexicon and the ranking may learn from.
 */
import type { AiRelevanceCase } from '../../packages/api/test/fixtures/sat-ai-relevance';

export const SAT_AI_TUNING: AiRelevanceCase[] = [
  // Building trades
  {
    query: 'pinto fachadas de negocios',
    codes: ['72151302', '72151300'],
    reason: 'commercial painting service',
  },
  {
    query: 'instalo aires acondicionados en casas',
    codes: ['72101511', '72151207', '72151200'],
    reason: 'air-conditioning installation',
  },
  {
    query: 'coloqué azulejo en la cocina de un cliente',
    codes: ['72152204', '72152200', '72152504', '72152500'],
    reason: 'ceramic tile installation',
  },
  {
    query: 'le eché el colado a la losa de una casa',
    codes: ['72152700', '72152710', '72111000'],
    reason: 'concrete installation services',
  },
  {
    query: 'puse muros de tablaroca en una oficina',
    codes: ['72152000', '72152001', '72152002'],
    reason: 'drywall services',
  },
  {
    query: 'hice la instalación eléctrica de una casa nueva',
    codes: ['72151500', '72151501'],
    reason: 'electrical installation services',
  },
  {
    query: 'le puse vidrios nuevos a unas ventanas',
    codes: ['72153000', '72152400'],
    reason: 'glazing services',
  },
  {
    query: 'hago closets y puertas de madera a la medida',
    codes: ['72152300', '72152301', '72152400'],
    reason: 'carpentry services',
  },
  {
    query: 'rento andamios para obra',
    codes: ['72153400', '72141700', '30191502'],
    reason: 'scaffolding services or construction equipment rental',
  },
  {
    query: 'vendo tablaroca y perfiles para construcción',
    codes: ['30161503'],
    reason: '"Drywall" (similar words: Tablaroca)',
  },
  {
    query: 'instalé una alarma contra robo en una casa',
    codes: ['72151703', '72151700'],
    reason: 'burglar alarm installation',
  },
  // Repair
  {
    query: 'formateé una laptop y le instalé el sistema',
    codes: ['81112300', '81112307', '81112200'],
    reason: 'PC maintenance and software support',
  },
  {
    query: 'reparé la transmisión de un carro',
    codes: ['78181502', '78181500', '78181507'],
    reason: 'transmission repair',
  },
  {
    query: 'hojalatería y pintura de una camioneta chocada',
    codes: ['78181501', '78181500'],
    reason: 'bodywork and painting of vehicles',
  },
  {
    query: 'le di servicio a la troca de un cliente',
    codes: ['78181500', '78181507'],
    reason: 'light vehicle maintenance',
  },
  // Vehicles and transport
  {
    query: 'hago fletes con mi camioneta dentro de la ciudad',
    codes: ['78101801', '78101800'],
    reason: 'local road freight',
  },
  {
    query: 'me mudé y contraté una mudanza a otra ciudad',
    codes: ['78101804', '78101802'],
    reason: 'relocation services',
  },
  {
    query: 'renté una camioneta para un viaje de trabajo',
    codes: ['78111808', '78111811'],
    reason: 'vehicle rental',
  },
  {
    query: 'compré boletos de avión para una junta en Cancún',
    codes: ['78111500', '78111502', '90121500'],
    reason: 'air passenger transport',
  },
  {
    query: 'pagué estacionamiento en el aeropuerto',
    codes: ['78111807'],
    reason: 'parking fees',
  },
  {
    query: 'mandé una caja por paquetería',
    codes: ['78102203', '78102204', '78102205', '78102200'],
    reason: 'parcel services',
  },
  {
    query: 'cargué gasolina premium',
    codes: ['15101515', '15101514'],
    reason: 'petrol',
  },
  {
    query: 'vendo llantas para carro',
    codes: ['25172500', '25172502', '25172504'],
    reason: 'tyres',
  },
  // Food and drink
  {
    query: 'vendo queso y crema de rancho',
    codes: ['50131800', '50131801', '50131700'],
    reason: 'cheese, dairy',
  },
  {
    query: 'vendo café de grano de Chiapas',
    codes: ['50201706', '50201700'],
    reason: 'coffee',
  },
  {
    query: 'vendo jugos y licuados en el mercado',
    codes: ['50202305', '50202304', '90101504'],
    reason: 'fresh juice',
  },
  {
    query: 'vendo tacos al pastor los fines de semana',
    codes: ['90101501', '90101503', '90101504', '90101500'],
    reason: 'eating places / street food',
  },
  {
    query: 'reparto comida a domicilio',
    codes: ['90101800', '90101801', '90101802'],
    reason: 'take-away and delivered food',
  },
  {
    query: 'vendo cortes de ternera',
    codes: ['50111517', '50111518'],
    reason: 'veal',
  },
  {
    query: 'vendo botellas de tequila a bares',
    codes: ['50202206', '50202200'],
    reason: 'distilled liquor',
  },
  {
    query: 'vendo leche bronca de mis vacas',
    codes: ['50131706', '50131700'],
    reason: 'raw milk ("Lactosa": similar words leche cruda, leche de vaca)',
  },
  {
    query: 'vendo nopales y verduras',
    codes: ['50407000'],
    reason: '"Vegetales Nominant" (similar words list nopal)',
  },
  // Agriculture
  {
    query: 'vendo puercos para engorda',
    codes: ['10101511', '10101500'],
    reason: 'live pigs',
  },
  {
    query: 'vendo sorgo para forraje',
    codes: ['10121504', '10121500'],
    reason: 'sorghum forage',
  },
  {
    query: 'siembro caña para el ingenio',
    codes: ['70141507', '50307000', '10161600'],
    reason: 'sugar-cane production',
  },
  {
    query: 'le puse riego por goteo a una huerta',
    codes: ['70171700', '72151103'],
    reason: 'irrigation services',
  },
  {
    query: 'vendo gallinas ponedoras',
    codes: ['10101601', '10101600'],
    reason: 'live chickens',
  },
  {
    query: 'aplico fertilizante en parcelas ajenas',
    codes: ['70131601', '70131600'],
    reason: 'fertiliser application services',
  },
  // Professional services
  {
    query: 'le llevo la contabilidad a personas físicas',
    codes: ['84111500', '84111502'],
    reason: 'accounting services',
  },
  {
    query: 'cobro honorarios por asesoría fiscal',
    codes: ['84111802', '84111800'],
    reason: 'tax advisory services',
  },
  {
    query: 'hice el acta constitutiva de una empresa ante notario',
    codes: ['80121603', '80121703'],
    reason: 'corporate law / notary fees',
  },
  {
    query: 'hice un estudio de mercado para una marca de ropa',
    codes: ['80141500', '80141501', '80141502'],
    reason: 'market research',
  },
  {
    query: 'administro unos edificios de departamentos',
    codes: ['80131800', '80131801'],
    reason: 'property management',
  },
  {
    query: 'vendí una casa como agente inmobiliario',
    codes: ['80131601', '80131600'],
    reason: 'real-estate agents',
  },
  {
    query: 'hice los cálculos estructurales de un edificio',
    codes: ['81101505', '81101500'],
    reason: 'structural engineering',
  },
  {
    query: 'consultoría para mejorar los procesos de una pyme',
    codes: ['80101500', '80101504', '80101507'],
    reason: 'business consulting',
  },
  {
    query: 'le hago la nómina a una empresa',
    codes: ['84111505', '84111500'],
    reason: 'payroll accounting',
  },
  // Software and IT
  {
    query: 'programo un sistema de inventarios para una tienda',
    codes: ['81111500', '81111504', '81111507'],
    reason: 'application programming',
  },
  {
    query: 'hago páginas web para negocios',
    codes: ['81112103', '81112100'],
    reason: 'website design',
  },
  {
    query: 'manejo las redes sociales de un restaurante',
    codes: ['82101800', '82101600', '80141600'],
    reason: 'advertising / business promotion',
  },
  {
    query: 'le vendo computadoras a una escuela',
    codes: ['43211500', '43211507', '43211508'],
    reason: 'computers',
  },
  {
    query: 'renta mensual de un software de punto de venta',
    codes: ['81112500', '81112501', '43231500'],
    reason: 'software licence rental',
  },
  {
    query: 'hosting y dominio para la página de un cliente',
    codes: ['81112105', '81112100', '81112103'],
    reason: 'web hosting',
  },
  // Health
  {
    query: 'consulta con el ginecólogo',
    codes: ['85121601', '85121600'],
    reason: 'gynaecology',
  },
  {
    query: 'limpieza dental y blanqueamiento',
    codes: ['85122000', '85122001'],
    reason: 'dental services',
  },
  {
    query: 'sesión de terapia con la psicóloga',
    codes: ['85121608'],
    reason: 'psychology services',
  },
  {
    query: 'consulta con el cardiólogo',
    codes: ['85121603', '85121600'],
    reason: 'cardiology',
  },
  {
    query: 'le doy terapia física a un deportista',
    codes: ['85122101', '85122100'],
    reason: 'physiotherapy',
  },
  // Education
  {
    query: 'doy clases de inglés en línea',
    codes: ['86111700', '86111701', '86111500', '86111501'],
    reason: 'language teaching / distance learning',
  },
  {
    query: 'doy clases de baile para adultos',
    codes: ['86131602', '86131600'],
    reason: 'dance education',
  },
  {
    query: 'pagué la colegiatura de la prepa',
    codes: ['86121600', '86121500'],
    reason: 'high-school fees',
  },
  {
    query: 'curso de computación para empleados',
    codes: ['86101700', '86101600', '86132000', '86101800'],
    reason: 'vocational training',
  },
  // Beauty and personal care
  {
    query: 'corte de cabello para caballero',
    codes: ['91101701', '91101700'],
    reason: 'haircut',
  },
  {
    query: 'doy masajes relajantes a domicilio',
    codes: ['91101503'],
    reason: 'massage services',
  },
  {
    query: 'hago faciales y tratamientos de belleza',
    codes: ['91101601', '91101600'],
    reason: 'facial and body treatments',
  },
  // Events
  {
    query: 'animo fiestas infantiles de payaso',
    codes: ['82151604'],
    reason: 'clown services',
  },
  {
    query: 'tomo fotos y video en bodas',
    codes: ['82131600', '82131603', '82131604'],
    reason: 'photographers and cinematographers',
  },
  {
    query: 'organizo bodas y quince años',
    codes: ['80141900', '80141902', '90101600', '90111603'],
    reason: 'event organisation / banquets',
  },
  {
    query: 'renta de lona para fiesta',
    codes: ['90101602'],
    reason: 'party tent services',
  },
  // Rent and lodging
  {
    query: 'rento una casa amueblada a turistas',
    codes: ['80131501', '90111500'],
    reason: 'residential rental / lodging',
  },
  {
    query: 'rento un local en una plaza comercial',
    codes: ['80131502'],
    reason: 'commercial premises rental',
  },
  {
    query: 'renta de minibodegas para guardar cosas',
    codes: ['78131600', '78131603', '80131502'],
    reason: 'storage of general goods',
  },
  // Cleaning and household
  {
    query: 'limpio oficinas en las noches',
    codes: ['76111501', '76111500'],
    reason: 'building cleaning',
  },
  {
    query: 'fumigo casas contra chinches y cucarachas',
    codes: ['72102100', '72102103', '72102104'],
    reason: 'pest control',
  },
  {
    query: 'lavo carros a domicilio',
    codes: ['76111800', '76111801', '78181500'],
    reason: 'vehicle cleaning',
  },
  {
    query: 'cuido niños en mi casa',
    codes: ['91111902', '91111900'],
    reason: 'babysitting / childcare',
  },
  // Goods
  {
    query: 'vendo muebles de madera hechos a mano',
    codes: ['56101500', '56101700', '73111505'],
    reason: 'furniture',
  },
  {
    query: 'vendo cable y material eléctrico',
    codes: ['26121500', '26121600', '39121400'],
    reason: 'electrical wire',
  },
  {
    query: 'vendo juguetes para niños',
    codes: ['60141000', '60141100'],
    reason: 'toys',
  },
  {
    query: 'vendo anteojos de sol',
    codes: ['42142905'],
    reason: 'sunglasses',
  },
];
