// A year of one company's CFDI, deterministic (seeded): income invoices paid at issue (PUE) and in
// installments (PPD), expenses from suppliers, and payment complements for part of the PPD invoices
// (a single settling one, or a partial one followed by the settling one). Files are in date order,
// as a SAT bulk download hands them out, so complements follow the invoices they pay.
import { invoiceTotal, invoiceXml, type Party, paymentXml } from '@folio/cfdi/testing';
import { api } from '../lib/server';

export const PROFILE: Party = { rfc: 'ABC970701NN4', nombre: 'Comercial ABC', regimen: '601' };

/** The dataset's company as a taxpayer profile of the signed-in user; returns its id. */
export async function createProfile(base: string, token: string): Promise<string> {
  const { data } = await api<{ data: { id: string } }>(base, 'POST', '/api/profiles', {
    token,
    body: {
      nombre: PROFILE.nombre,
      rfc: PROFILE.rfc,
      tipo_persona: 'MORAL',
      regimenes_fiscales: [PROFILE.regimen],
    },
  });
  return data.id;
}

export interface Mix {
  incomePue: number;
  incomePpd: number;
  expenses: number;
  /** PPD invoices paid by one settling complement. */
  settledOnce: number;
  /** PPD invoices paid by a partial complement and then a settling one (two complements each). */
  settledTwice: number;
  /** PPD invoices with one partial complement only. */
  partialOnly: number;
}

/** 10,000 documents: 4,000 + 2,500 income, 2,500 expenses, 200 + 2 × 350 + 100 complements. */
export const MIX: Mix = {
  incomePue: 4000,
  incomePpd: 2500,
  expenses: 2500,
  settledOnce: 200,
  settledTwice: 350,
  partialOnly: 100,
};

const complements = (m: Mix) => m.settledOnce + 2 * m.settledTwice + m.partialOnly;
export const total = (m: Mix) => m.incomePue + m.incomePpd + m.expenses + complements(m);

export interface Doc {
  name: string;
  xml: string;
  fecha: string;
  kind: 'income' | 'expense' | 'payment';
}

export interface Dataset {
  docs: Doc[];
  /** Expected after import: listing totals and a few payment states to spot-check. */
  expect: {
    invoices: number;
    expenses: number;
    paid: string[];
    partial: string[];
    unpaid: string[];
  };
}

function prng(seed: number) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const LETTERS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ';
const FIRST = ['Comercializadora', 'Ferretería', 'Distribuidora', 'Servicios', 'Grupo', 'Abarrotes'];
const SECOND = ['del Norte', 'López', 'Hernández', 'Martínez', 'del Bajío', 'Peñasco', 'Azteca', 'Guadalupe'];
const SUFFIX = ['SA de CV', 'S de RL de CV', 'SC', 'SAPI de CV'];
const ITEMS = [
  'Servicios de consultoría',
  'Mantenimiento preventivo',
  'Licencia de software',
  'Renta de oficina',
  'Papelería y artículos de oficina',
  'Transporte de mercancía',
  'Diseño gráfico',
  'Capacitación técnica',
];

function party(i: number, regimen: string): Party {
  const l = (n: number) => LETTERS[n % 26];
  const rfc = `${l(i)}${l(Math.floor(i / 26) + 3)}${l(Math.floor(i / 676) + 7)}${String(900101 + (i % 28)).padStart(6, '0')}A${l(i + 5)}${i % 10}`;
  const nombre = `${FIRST[i % FIRST.length]} ${SECOND[Math.floor(i / FIRST.length) % SECOND.length]} ${i} ${SUFFIX[i % SUFFIX.length]}`;
  return { rfc, nombre, regimen };
}

export function buildDataset(mix: Mix = MIX, seed = 4): Dataset {
  const rnd = prng(seed);
  const int = (n: number) => Math.floor(rnd() * n);
  const hex = (n: number) => Array.from({ length: n }, () => '0123456789ABCDEF'[int(16)]).join('');
  const uuid = () => `${hex(8)}-${hex(4)}-4${hex(3)}-A${hex(3)}-${hex(12)}`;
  const clients = Array.from({ length: 300 }, (_, i) => party(i, '601'));
  const suppliers = Array.from({ length: 120 }, (_, i) => party(1000 + i, '601'));
  const pad = (n: number) => String(n).padStart(2, '0');
  // A date in 2025 (day ≤ 28 so any month works), at a random time.
  const date = (minDay = 0) => {
    const day = Math.min(364, minDay + int(365 - minDay));
    const m = Math.min(11, Math.floor(day / 30.5));
    const d = 1 + (day % 28);
    return { day, fecha: `2025-${pad(m + 1)}-${pad(d)}T${pad(8 + int(10))}:${pad(int(60))}:${pad(int(60))}` };
  };
  const conceptos = () =>
    Array.from({ length: 1 + int(3) }, () => ({
      descripcion: ITEMS[int(ITEMS.length)]!,
      importe: Math.round((200 + rnd() * 30_000) * 100) / 100,
    }));

  const docs: Doc[] = [];
  const expect: Dataset['expect'] = { invoices: 0, expenses: 0, paid: [], partial: [], unpaid: [] };
  let seq = 0;
  const add = (kind: Doc['kind'], fecha: string, xml: string) =>
    docs.push({ name: `${kind}-${String(++seq).padStart(5, '0')}.xml`, xml, fecha, kind });

  for (let i = 0; i < mix.incomePue; i++) {
    const { fecha } = date();
    const receptor = clients[int(clients.length)]!;
    add(
      'income',
      fecha,
      invoiceXml({
        uuid: uuid(),
        emisor: PROFILE,
        receptor,
        fecha,
        metodoPago: 'PUE',
        conceptos: conceptos(),
      }),
    );
  }
  for (let i = 0; i < mix.incomePpd; i++) {
    const { fecha, day } = date();
    const receptor = clients[int(clients.length)]!;
    const c = conceptos();
    const id = uuid();
    add(
      'income',
      fecha,
      invoiceXml({ uuid: id, emisor: PROFILE, receptor, fecha, metodoPago: 'PPD', conceptos: c }),
    );
    const owed = Math.round(invoiceTotal({ conceptos: c }) * 100) / 100;
    const pay = (n: number, saldo: number, amount: number, after: number) => {
      const at = date(after);
      add(
        'payment',
        at.fecha,
        paymentXml({
          uuid: uuid(),
          emisor: PROFILE,
          receptor,
          fecha: at.fecha,
          pagos: [
            {
              fechaPago: at.fecha,
              doctos: [{ uuid: id, numParcialidad: n, impSaldoAnt: saldo, impPagado: amount }],
            },
          ],
        }),
      );
      return at.day;
    };
    if (i < mix.settledOnce) {
      pay(1, owed, owed, day);
      if (expect.paid.length < 5) expect.paid.push(id);
    } else if (i < mix.settledOnce + mix.settledTwice) {
      const first = Math.round(owed * 0.4 * 100) / 100;
      const next = pay(1, owed, first, day);
      pay(2, Math.round((owed - first) * 100) / 100, Math.round((owed - first) * 100) / 100, next);
      if (expect.paid.length < 10) expect.paid.push(id);
    } else if (i < mix.settledOnce + mix.settledTwice + mix.partialOnly) {
      pay(1, owed, Math.round(owed * 0.25 * 100) / 100, day);
      if (expect.partial.length < 5) expect.partial.push(id);
    } else if (expect.unpaid.length < 5) {
      expect.unpaid.push(id);
    }
  }
  for (let i = 0; i < mix.expenses; i++) {
    const { fecha } = date();
    const emisor = suppliers[int(suppliers.length)]!;
    const metodoPago = rnd() < 0.8 ? 'PUE' : 'PPD';
    add(
      'expense',
      fecha,
      invoiceXml({ uuid: uuid(), emisor, receptor: PROFILE, fecha, metodoPago, conceptos: conceptos() }),
    );
  }
  docs.sort((a, b) => (a.fecha < b.fecha ? -1 : a.fecha > b.fecha ? 1 : 0));
  expect.invoices = mix.incomePue + mix.incomePpd + complements(mix);
  expect.expenses = mix.expenses;
  return { docs, expect };
}
