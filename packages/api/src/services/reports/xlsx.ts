import type { z } from 'zod';
import type { AnnualReport, DiotReport, MonthlyReport } from '../../schemas/report';
import type { Cell } from '../exports/columns';
import type { Sheet } from '../exports/writers';

// The reports as workbooks: one sheet per section of the served level, Spanish headers, amounts as
// numeric cells (a person hands it to their accountant, who sums and filters it).

type Monthly = z.infer<typeof MonthlyReport>;
type Annual = z.infer<typeof AnnualReport>;
type Diot = z.infer<typeof DiotReport>;

const text = (header: string) => ({ header, kind: 'text' as const });
const num = (header: string) => ({ header, kind: 'number' as const });

const ACCRUAL: Array<[string, keyof Monthly['ingresos']]> = [
  ['Documentos', 'documentos'],
  ['Subtotal', 'subtotal'],
  ['Descuento', 'descuento'],
  ['IVA trasladado', 'iva_trasladado'],
  ['Retención IVA', 'retencion_iva'],
  ['Retención ISR', 'retencion_isr'],
  ['Total', 'total'],
  ['Notas de crédito (restadas)', 'notas_credito'],
];

const CASH: Array<[string, Exclude<keyof NonNullable<Monthly['flujo']>['cobrado'], 'por_tasa'>]> = [
  ['Base', 'base'],
  ['IVA trasladado', 'iva_trasladado'],
  ['Retención IVA', 'retencion_iva'],
  ['Retención ISR', 'retencion_isr'],
  ['Total', 'total'],
];

const POR_TASA: Array<[string, keyof NonNullable<Monthly['flujo']>['cobrado']['por_tasa']]> = [
  ['16 %', 'tasa_16'],
  ['8 %', 'tasa_8'],
  ['0 %', 'tasa_0'],
  ['Exento', 'exento'],
  ['No objeto', 'no_objeto'],
];

const IVA: Array<[string, keyof NonNullable<Monthly['iva']>]> = [
  ['IVA trasladado cobrado', 'trasladado_cobrado'],
  ['IVA retenido por clientes', 'retenido_por_clientes'],
  ['IVA acreditable pagado', 'acreditable_pagado'],
  ['IVA no acreditable', 'no_acreditable'],
  ['Proporción % (LIVA 5-V / 5-B)', 'proporcion'],
  ['Saldos a favor anteriores del año (informativo)', 'saldos_a_favor_anteriores'],
  ['IVA retenido a proveedores (se entera aparte)', 'retenido_a_proveedores'],
  ['Saldo', 'saldo'],
  ['IVA a cargo', 'a_cargo'],
  ['IVA a favor', 'a_favor'],
];

const sheet = (name: string, headers: Sheet['columns'], rows: Cell[][]): Sheet => ({
  name,
  columns: headers,
  rows,
});

type Sections = Pick<Monthly, 'ingresos' | 'egresos' | 'flujo' | 'iva' | 'isr'> & {
  resico?: Partial<NonNullable<Monthly['resico']>>;
};

/** The sections both the month and the year's totals have. */
function totalsSheets(r: Sections): Sheet[] {
  const sheets = [
    sheet(
      'Ingresos y egresos',
      [text('Concepto'), num('Ingresos'), num('Egresos')],
      ACCRUAL.map(([label, key]) => [label, r.ingresos[key], r.egresos[key]]),
    ),
  ];
  if (r.flujo) {
    const { cobrado, pagado } = r.flujo;
    sheets.push(
      sheet(
        'Flujo',
        [text('Concepto'), num('Cobrado'), num('Pagado')],
        CASH.map(([label, key]) => [label, cobrado[key], pagado[key]]),
      ),
      sheet(
        'IVA por tasa',
        [text('Tasa'), num('Base cobrada'), num('IVA cobrado'), num('Base pagada'), num('IVA pagado')],
        POR_TASA.map(([label, key]) => [
          label,
          cobrado.por_tasa[key].base,
          cobrado.por_tasa[key].iva,
          pagado.por_tasa[key].base,
          pagado.por_tasa[key].iva,
        ]),
      ),
    );
  }
  const iva = r.iva;
  if (iva)
    sheets.push(
      sheet(
        'IVA',
        [text('Concepto'), num('Importe')],
        IVA.filter(([, key]) => iva[key] !== undefined).map(([label, key]) => [label, iva[key]!]),
      ),
    );
  if (r.isr) {
    sheets.push(
      sheet(
        'ISR',
        [text('Concepto'), num('Importe')],
        [
          ['ISR retenido por clientes', r.isr.retenido_por_clientes],
          ['ISR retenido a proveedores', r.isr.retenido_a_proveedores],
        ],
      ),
    );
  }
  if (r.resico) {
    const x = r.resico;
    sheets.push(
      sheet(
        'RESICO',
        [text('Concepto'), num('Valor')],
        [
          ['Ingresos cobrados (sin IVA)', x.ingresos_cobrados],
          ...(x.tasa === undefined ? [] : ([['Tasa % (LISR 113-E)', x.tasa]] as Cell[][])),
          ['ISR causado', x.isr_causado],
          ['ISR retenido', x.isr_retenido],
          ['ISR a pagar', x.isr_a_pagar],
        ],
      ),
    );
  }
  return sheets;
}

const parties = (name: string, moved: string, rows: Array<Record<string, string | number>>) =>
  sheet(
    name,
    [
      text('RFC'),
      text('Nombre'),
      num('Documentos'),
      num('Total'),
      num(moved === 'cobrado' ? 'Cobrado' : 'Pagado'),
      num('Saldo pendiente'),
    ],
    rows.map((r) => [r.rfc, r.nombre, r.documentos, r.total, r[moved], r.saldo_pendiente]),
  );

const warnings = (list: string[]) =>
  sheet(
    'Advertencias',
    [text('Advertencia')],
    list.map((a) => [a]),
  );

export function monthlySheets(r: Monthly): Sheet[] {
  const sheets = totalsSheets(r);
  if (r.por_cliente) sheets.push(parties('Por cliente', 'cobrado', r.por_cliente));
  if (r.por_proveedor) sheets.push(parties('Por proveedor', 'pagado', r.por_proveedor));
  if (r.pendientes) {
    const { por_cobrar, por_pagar } = r.pendientes;
    sheets.push(
      sheet(
        'Pendientes',
        [text('Concepto'), num('Documentos'), num('Saldo')],
        [
          ['Por cobrar', por_cobrar.documentos, por_cobrar.saldo],
          ['Por pagar', por_pagar.documentos, por_pagar.saldo],
        ],
      ),
    );
  }
  sheets.push(warnings(r.advertencias));
  return sheets;
}

export function annualSheets(r: Annual): Sheet[] {
  const complete = r.meses[0]?.flujo !== undefined;
  const columns = [
    num('Mes'),
    num('Ingresos'),
    num('Egresos'),
    ...(complete
      ? [
          num('Cobrado'),
          num('Pagado'),
          num('IVA a cargo'),
          num('IVA a favor'),
          num('ISR retenido por clientes'),
        ]
      : []),
  ];
  const months = r.meses.map((m) => [
    m.periodo.mes,
    m.ingresos.total,
    m.egresos.total,
    ...(m.flujo && m.iva && m.isr
      ? [
          m.flujo.cobrado.total,
          m.flujo.pagado.total,
          m.iva.a_cargo,
          m.iva.a_favor,
          m.isr.retenido_por_clientes,
        ]
      : []),
  ]);
  return [
    sheet('Meses', columns, months),
    ...totalsSheets(r.totales),
    sheet(
      'Advertencias',
      [num('Mes'), text('Advertencia')],
      r.meses.flatMap((m) => m.advertencias.map((a) => [m.periodo.mes, a])),
    ),
  ];
}

export function diotSheets(r: Diot): Sheet[] {
  return [
    sheet(
      'DIOT',
      [
        text('RFC'),
        text('Nombre'),
        // One column for both codes: the PDF table has room for eleven.
        text('Tipo de tercero y de operación'),
        num('Base 16 %'),
        num('IVA 16 %'),
        num('Base 8 %'),
        num('IVA 8 %'),
        num('Base 0 %'),
        num('Base exenta'),
        num('IVA retenido'),
        num('Documentos'),
      ],
      r.proveedores.map((p) => [
        p.rfc,
        p.nombre,
        `${p.tipo_tercero} ${p.tipo_operacion}`,
        p.base_16,
        p.iva_16,
        p.base_8,
        p.iva_8,
        p.base_0,
        p.base_exenta,
        p.iva_retenido,
        p.documentos,
      ]),
    ),
    warnings(r.advertencias),
  ];
}
