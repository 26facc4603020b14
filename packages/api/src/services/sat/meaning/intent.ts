import { verbRoots } from './derive';
import { isServiceCode } from './segment';
import { fold } from './text';

/**
 * Whether a sentence asks for a service. c_ClaveProdServ keeps services apart by segment (UNSPSC
 * 70–94; 10–60 are goods, 95 land and buildings). "Pinté una casa", "limpio oficinas", "clases de
 * inglés" want a service, though what they name (casa, oficina, inglés) also names goods; codes
 * outside those segments then rank lower, not out. Selling says nothing either way ("vendo pollo",
 * but also "vendo comidas corridas": a restaurant), so it never decides.
 */
export type Intent = 'service';

/** Verbs of selling (folded): what follows may be goods or a service. */
const SELLING = new Set(
  'vendo vendi vende vendemos venden vender surto surti surtimos distribuyo distribui revendo'.split(' '),
);
/** Verbs of paying or buying: either kind follows ("compré diésel", "pagué la colegiatura"). */
const PAYING = new Set(
  'compro compre compramos compra comprar pago pague pagamos paga pagar cargo cargue llene'.split(' '),
);
/** Nouns that name a service whatever follows them (folded). */
const SERVICE_NOUNS = new Set(
  (
    'servicio servicios consulta consultas clase clases curso cursos taller renta rento rente rentamos alquilo ' +
    'alquiler mantenimiento reparacion instalacion sesion sesiones corte terapia colegiatura inscripcion ' +
    'honorarios asesoria consultoria flete fletes transporte mudanza hospedaje limpieza'
  ).split(' '),
);
/** Irregular first persons of doing something for someone ("le doy mantenimiento", "hice los planos", "puse piso"). */
const DOING = new Set('doy damos di dimos hice hicimos puse pusimos'.split(' '));
/** Words that may open a sentence before its verb ("le pinté…", "ya instalé…"). */
const OPENERS = new Set('le les lo la los me nos se ya yo tambien'.split(' '));

export function intentOf(typed: string[]): Intent | undefined {
  const folded = typed.map(fold);
  if (folded.some((w) => SELLING.has(w))) return undefined;
  if (folded.some((w) => SERVICE_NOUNS.has(w) || DOING.has(w))) return 'service';
  // A preterite in the first person ("pinté", "construí") or a present opening the sentence
  // ("limpio oficinas"): the speaker did the work. ("Hago…" may make goods: "hago pasteles".)
  const first = folded.findIndex((w) => !OPENERS.has(w));
  const doing = typed.some(
    (w, i) =>
      !PAYING.has(folded[i]!) &&
      (/[éí]$/.test(w) || (i === first && /o$/.test(w))) &&
      verbRoots(w).length > 0,
  );
  return doing ? 'service' : undefined;
}

/** How much a code that is not a service keeps of its score when a service is asked for. */
const OFF_INTENT = 0.6;

/** A code's score factor under `intent`, from its service flag (`MeaningModel.service`). */
export function intentFactorOf(intent: Intent | undefined, service: number | boolean): number {
  return !intent || service ? 1 : OFF_INTENT;
}

/** The same factor, from the code itself. */
export const intentFactor = (intent: Intent | undefined, id: string): number =>
  intentFactorOf(intent, isServiceCode(id));
