import { openDb, importSatCatalog } from './src/index';
import { searchSatProducts } from './src/queries/catalogs';
const h = await openDb({});
await importSatCatalog(h.db,'/work/shared/data/sat/c_claveprodserv.csv');
for (const q of ['computadora','computadoras portátiles','gasolina','servicios contables','honorarios contables','renta de oficina','agua embotellada','laptop','papeleria','consultoria','transporte de carga','desarrollo de software','hotel','restaurante','uniformes','publicidad','internet','telefono celular','medicamentos','cemento','llantas','seguro de auto','4321','vino','cerveza']) {
  const t=Date.now();
  const r = await searchSatProducts(h.db,{query:q,limit:5,offset:0});
  console.log(q, Date.now()-t,'ms total', r.total, r.items.map(i=>i.id+' '+i.descripcion.slice(0,40)).join(' | '));
}
await h.close();
