import { stemmer } from '@orama/stemmers/spanish';

/** Lower case without accents (ñ → n too): how people type in a search box. */
export function fold(text: string): string {
  return text
    .toLowerCase()
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '');
}

/**
 * Spanish function words, plus the verbs and fillers of a sentence about one's own business ("le
 * vendo…", "hago…", "cobro por…"): they say who does what, not what is sold. Folded.
 */
const STOPWORDS = new Set(
  (
    'a al algo algun alguna algunas alguno algunos ante antes aqui asi aun bajo cada casi como con contra ' +
    'cual cuales cuando de del desde donde dos durante e el ella ellas ellos en entre era es esa esas ese eso ' +
    'esos esta estan estas este esto estos etc fue ha hace hacer hacemos hacen hago han hasta hay la las le les lo ' +
    'los mas me mi mis mucho muy mas ni no nos nosotros nuestra nuestro o os otra otro otros para pero poco por ' +
    'porque que quien se sea ser si sin sobre solo son su sus tambien te tiene tienen tengo todo todos tu tus un ' +
    'una unas uno unos usted ustedes y ya yo ' +
    'vendo vende venden vendemos vender vendiendo doy damos da dan ofrezco ofrece ofrecemos presto prestamos brindo brindamos ' +
    'cobro cobra cobramos compro compra compramos pago paga pagamos soy somos trabajo trabajamos tipo cosa ' +
    'cosas gente persona personas cliente clientes mis nuestros nuestras alguien'
  ).split(' '),
);

/** Lower-case words of a text, in order, accents kept (Snowball's Spanish rules need them). */
export function words(text: string): string[] {
  return text.toLowerCase().match(/[\p{L}\d]+/gu) ?? [];
}

/** A word worth indexing: not a function word, not a bare number, not a single letter. */
export function isContentWord(word: string): boolean {
  return word.length > 1 && !/^\d+$/.test(word) && !STOPWORDS.has(fold(word));
}

const stems = new Map<string, string>();
/** The folded Snowball stem of a lower-case word (memoised: the catalog repeats its words a lot). */
export function stem(word: string): string {
  let s = stems.get(word);
  if (s === undefined) {
    s = fold(word.length <= 3 ? word : stemmer(word));
    stems.set(word, s);
  }
  return s;
}
