/**
 * How a freelancer or a small business describes what it sells or buys, in everyday Spanish, with
 * the c_ClaveProdServ codes a contador would accept for it (read from the catalog) and why. The
 * search by meaning must put one of them in its first five results; shared by the relevance test
 * and bench/sat-ai. Most queries use words the catalog does not (depa, camioneta, pasteles…).
 */
export interface AiRelevanceCase {
  query: string;
  codes: string[];
  reason: string;
}

export const SAT_AI_RELEVANCE: AiRelevanceCase[] = [
  // Food and drink
  {
    query: 'le vendo pasteles a una cafetería',
    codes: ['50181900', '50182000', '50182001'],
    reason:
      'pasteles are "Ponqués pasteles o biscochos frescos" (50182001) in the pan/galletas/pastelitos family (50181900, 50182000)',
  },
  {
    query: 'vendo pan dulce y bolillos',
    codes: ['50181900', '50181901', '50181906'],
    reason: 'bolillos and pan dulce: "Pan fresco" (its similar words list bolillos) or the family 50181900',
  },
  {
    query: 'galletas caseras',
    codes: ['50181905', '50181900', '50181903'],
    reason: '"Galletas de dulce" / "Galletas sencillas de sal" in the pan y galletas family',
  },
  {
    query: 'garrafones de agua purificada',
    codes: ['50202301'],
    reason: '"Agua": its similar words are agua embotellada, potable, purificada',
  },
  {
    query: 'vendo refrescos y chescos',
    codes: ['50202306', '50202300'],
    reason: '"Refrescos" in "Bebidas no alcohólicas"',
  },
  {
    query: 'cartón de chelas',
    codes: ['50202201', '50202200'],
    reason: 'chelas is beer: "Cerveza" in "Bebidas alcohólicas"',
  },
  {
    query: 'botellas de mezcal',
    codes: ['50202206', '50202200'],
    reason: '"Licor destilado" lists mezcal among its similar words',
  },
  {
    query: 'kilos de carne para taquería',
    codes: ['50111500', '50111513', '50112004'],
    reason: 'raw meat: "Carne y aves de corral" / "Carne, mínimamente procesada sin aditivos"',
  },
  {
    query: 'comida para una fiesta de 100 personas',
    codes: ['90101600', '90101601'],
    reason: 'food served at an event is "Servicios de banquetes y catering"',
  },
  {
    query: 'tengo una fonda y vendo comidas corridas',
    codes: ['90101501', '90101500'],
    reason: 'a fonda is a small restaurant: "Restaurantes"',
  },
  {
    query: 'cafecito y desayunos en mi cafetería',
    codes: ['90101700', '90101500', '90101501'],
    reason: '"Servicios de cafetería"',
  },
  // Housing and premises
  {
    query: 'renta de un depa',
    codes: ['80131501', '80131500'],
    reason: 'renting out a flat: "Arrendamiento de residencias" (similar words: renta de casa habitación)',
  },
  {
    query: 'le rento mi casa a una familia',
    codes: ['80131501', '80131500'],
    reason: 'house rent: "Arrendamiento de residencias"',
  },
  {
    query: 'renta de local para mi negocio',
    codes: ['80131502', '80131500'],
    reason:
      '"Arrendamiento de instalaciones comerciales o industriales" (similar words: renta de local comercial)',
  },
  {
    query: 'renta de un terreno',
    codes: ['80131503', '80131500'],
    reason: '"Arrendamientos de tierras" (similar words: renta de terreno)',
  },
  {
    query: 'hospedaje por noche en mi hostal',
    codes: ['90111500', '90111501', '90111503', '90111800'],
    reason: 'lodging: "Hoteles y moteles y pensiones" and its codes',
  },
  // Vehicles and transport
  {
    query: 'mantenimiento de la camioneta',
    codes: ['78181500', '78181507'],
    reason:
      '"Servicios de mantenimiento y reparación de vehículos" / "Reparación y mantenimiento automotor y de camiones ligeros"',
  },
  {
    query: 'llevé el carro al taller mecánico',
    codes: ['78181500', '78181507'],
    reason:
      'a workshop repair: "Servicios de mantenimiento y reparación de vehículos" (similar words: taller mecánico)',
  },
  {
    query: 'hojalatería y pintura del coche',
    codes: ['78181501'],
    reason:
      '"Servicio de pintura o reparación de carrocerías de vehículos" (similar words: hojalatería y pintura)',
  },
  {
    query: 'llantas nuevas para el carro',
    codes: ['25172504', '25172500', '25172502'],
    reason: '"Llantas para automóviles o camionetas"',
  },
  {
    query: 'le cargué gasolina a la troca',
    codes: ['15101514', '15101515', '15101506'],
    reason:
      'fuel: "Gasolina regular" / "premium" (15101506 Gasolina is no longer valid but a contador recognises it)',
  },
  { query: 'viajes en taxi y uber', codes: ['78111804'], reason: 'ride services: "Servicios de taxi"' },
  {
    query: 'flete para una mudanza',
    codes: ['78101804', '78121603', '78101800'],
    reason: '"Servicios de reubicación" (similar words: fletes y mudanzas), "Tarifa de los fletes"',
  },
  {
    query: 'envío de mercancía en camión a otra ciudad',
    codes: ['78101802', '78101800', '78101801'],
    reason: 'road freight: "Servicios transporte de carga por carretera … a nivel regional"',
  },
  {
    query: 'boletos de avión para un viaje de trabajo',
    codes: ['78111502', '78111500'],
    reason: '"Viajes en aviones comerciales"',
  },
  {
    query: 'renta de carro por una semana',
    codes: ['78111808'],
    reason: '"Alquiler de vehículos" (similar words: renta de vehículos)',
  },
  {
    query: 'compré un carro para la empresa',
    codes: ['25101503', '25101500'],
    reason: '"Carros" (similar words: automóviles) among "Vehículos de pasajeros"',
  },
  { query: 'estacionamiento del coche', codes: ['78111807'], reason: '"Tarifas del parqueadero"' },
  // Professional services
  {
    query: 'llevo la contabilidad de pequeños negocios',
    codes: ['84111500', '84111502', '84111503', '84111504'],
    reason: '"Servicios contables" (similar words: honorarios contables) and its codes',
  },
  {
    query: 'declaraciones de impuestos de mis clientes',
    codes: ['84111503', '84111500'],
    reason: 'tax returns: "Servicio de contabilidad fiscal"',
  },
  {
    query: 'hago la nómina de una empresa',
    codes: ['84111505'],
    reason: '"Servicios de contabilidad de sueldos y salarios" (similar words: servicios de nómina)',
  },
  {
    query: 'asesoría legal de un abogado',
    codes: ['80121600', '80121603', '80121700'],
    reason: 'legal advice: "Servicios de derecho comercial" (similar words: asesoría jurídica)',
  },
  {
    query: 'trámites con el notario',
    codes: ['80121603'],
    reason: '"Derecho societario" lists honorarios de notarios among its similar words',
  },
  {
    query: 'registro de mi marca',
    codes: ['80121604'],
    reason: '"Derecho de patentes, marcas o derechos de autor"',
  },
  {
    query: 'consultoría para mejorar mi negocio',
    codes: ['80101500', '80101504', '80101505'],
    reason: '"Servicios de consultoría de negocios y administración corporativa"',
  },
  {
    query: 'traducción de documentos al inglés',
    codes: ['82111804'],
    reason: '"Servicios de traducción escrita"',
  },
  {
    query: 'comisión por vender productos de otro',
    codes: ['80141601', '80141600', '80141612'],
    reason:
      'a commission agent: "Servicios de promoción de ventas" (similar words: comisionistas), "Actividades de ventas y promoción de negocios" (similar words: comisiones)',
  },
  {
    query: 'organizo bodas y eventos',
    codes: ['80141607', '80141902'],
    reason: '"Gestión de eventos" (similar words: organización de eventos)',
  },
  // Technology
  {
    query: 'hago páginas web para negocios',
    codes: ['81112103', '81111509', '81111510'],
    reason: '"Servicios de diseño de sitios web www"',
  },
  {
    query: 'programo apps a la medida',
    codes: ['81111500', '81111502', '81111504', '81111509'],
    reason:
      'custom software: "Ingeniería de software o hardware", "Servicios de programación de aplicaciones"',
  },
  {
    query: 'arreglo compus y laptops',
    codes: ['81112300', '81112307', '81111800'],
    reason:
      '"Mantenimiento de pc o puestos de trabajo o cuadernos" / "Mantenimiento y soporte de hardware de computador"',
  },
  {
    query: 'vendo laptops',
    codes: ['43211508', '43211503', '43211500'],
    reason:
      '"Computadores personales" (similar words: computadoras personales o laptop), "Computadores notebook"',
  },
  {
    query: 'vendo celulares',
    codes: ['43191501'],
    reason: '"Teléfonos móviles" (similar words: celular o smartphone)',
  },
  {
    query: 'hosting para la página de mi empresa',
    codes: ['81112105', '81112101'],
    reason: '"Servicios de hospedaje de operación de sitios web"',
  },
  {
    query: 'pago del internet de la oficina',
    codes: ['81112101', '83121703'],
    reason: '"Proveedores de servicio de internet (psi)"',
  },
  {
    query: 'plan de celular de la empresa',
    codes: ['83111603', '83111600'],
    reason: '"Servicios de telefonía celular"',
  },
  // Education
  {
    query: 'clases de inglés en línea',
    codes: ['86111700', '86111701', '86111502'],
    reason:
      '"Educación de idiomas" / "Enseñanza de idiomas extranjeros…" / "Servicios de enseñanza a distancia"',
  },
  {
    query: 'colegiatura de la primaria',
    codes: ['86121500', '86121503', '86121504'],
    reason: '"Escuelas preescolares, primarias y secundarias" (similar words: colegiaturas)',
  },
  {
    query: 'curso de capacitación para empleados',
    codes: ['86101700', '86101705', '86132000', '86132001'],
    reason: '"Servicios de capacitación vocacional no - científica" / "Capacitación administrativa"',
  },
  {
    query: 'guardería para mi bebé',
    codes: ['91111901', '91111902'],
    reason: '"Servicios de guardería para niños o bebés" (similar words: estancias infantiles)',
  },
  // Health and personal care
  {
    query: 'consulta con el doctor',
    codes: ['85121502', '85121501', '85121600'],
    reason: '"Servicios de consulta de médicos de atención primaria" (similar words: consulta médica)',
  },
  {
    query: 'fui al dentista',
    codes: ['85122000', '85122001'],
    reason: '"Servicios dentales" / "Servicios de odontólogos" (similar words: dentistas)',
  },
  {
    query: 'sesiones de terapia con psicóloga',
    codes: ['85121608'],
    reason: '"Servicios de psicología" (similar words: honorarios de psicología)',
  },
  {
    query: 'corte de pelo en la estética',
    codes: ['91101701', '91101700'],
    reason: '"Servicios de corte y tinte de pelo" in "Cuidado del pelo"',
  },
  { query: 'masajes relajantes', codes: ['91101503'], reason: '"Servicios de masajes"' },
  {
    query: 'consulta del veterinario para mi perro',
    codes: ['70122000', '70122009', '70122007'],
    reason: '"Salud animal" (similar words: servicios veterinarios)',
  },
  { query: 'mensualidad del gym', codes: ['91101501', '91101504'], reason: '"Gimnasios o centros de salud"' },
  // Home and building trades
  {
    query: 'arreglo fugas, soy plomero',
    codes: ['72101510', '72151100'],
    reason: '"Mantenimiento o reparación del sistema de plomería"',
  },
  {
    query: 'instalación eléctrica de una casa',
    codes: ['72151500', '72151501'],
    reason: '"Servicios de sistemas eléctricos" (similar words: instalaciones eléctricas)',
  },
  {
    query: 'pintar una casa por dentro',
    codes: ['72151301', '72151300'],
    reason: '"Servicio de pintura residencial"',
  },
  {
    query: 'limpieza de oficinas',
    codes: ['76111501', '76111500'],
    reason: '"Servicios de limpieza de edificios" (similar words: aseo de edificios)',
  },
  {
    query: 'fumigar contra cucarachas',
    codes: ['72102103', '72102100'],
    reason: '"Servicios de exterminación o fumigación" in "Control de plagas"',
  },
  {
    query: 'poda de árboles del jardín',
    codes: ['70111503', '70111502'],
    reason: '"Servicios de poda de árboles"',
  },
  {
    query: 'guardias de seguridad para la empresa',
    codes: ['92121500', '92121504', '92101501'],
    reason: '"Servicios de guardias" / "Servicios de vigilancia"',
  },
  { query: 'bultos de cemento', codes: ['30111601', '30111600'], reason: '"Cemento" in "Cemento y cal"' },
  // Goods
  {
    query: 'playeras estampadas',
    codes: ['53103000', '53103001'],
    reason: 'playeras are t-shirts: "Camisetas"',
  },
  {
    query: 'vendo tenis y zapatos',
    codes: ['53111600', '53111601', '53111602', '53111900'],
    reason: '"Zapatos" (and its codes by wearer)',
  },
  { query: 'uniformes para la escuela', codes: ['53102705', '53102700'], reason: '"Uniformes de colegio"' },
  {
    query: 'escritorios y sillas para la oficina',
    codes: ['56101700', '56101703', '56112100', '56112104'],
    reason: '"Muebles de oficina" / "Escritorios"',
  },
  // Utilities and finance
  {
    query: 'recibo de luz',
    codes: ['83101800', '83101801'],
    reason: 'the electricity bill: "Servicios eléctricos" / "Suministro de electricidad monofásica"',
  },
  { query: 'seguro del coche', codes: ['84131503'], reason: '"Seguro de automóviles o camiones"' },
  // Media and events
  {
    query: 'fotos de una boda',
    codes: ['82131604', '82131600'],
    reason: '"Servicios de estudio fotográfico o fotos fijas" in "Fotógrafos y cinematógrafos"',
  },
  { query: 'video para redes sociales', codes: ['82131603'], reason: '"Servicios de producción de vídeos"' },
  {
    query: 'anuncios en espectaculares',
    codes: ['82101501', '82101500'],
    reason: '"Publicidad en vallas" (similar words: publicidad en espectaculares)',
  },
  {
    query: 'volantes para promocionar mi negocio',
    codes: ['82101505', '82121500', '82121503'],
    reason: '"Publicidad en volantes o cupones"',
  },
  {
    query: 'toco con mi grupo en fiestas',
    codes: ['90131500', '90131504'],
    reason: 'live music: "Actuaciones en vivo" / "Conciertos"',
  },
];
