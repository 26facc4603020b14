import { CHECKOUT_PLANS, PLAN_LIMITS } from '@folio/billing';
import { includes, type Nivel } from './compute/monthly';

/** "requires the BASIC or PRO plan": the plans on sale whose report level includes `needed`. */
export function reportLevelRequired(what: string, needed: Nivel): string {
  const plans = CHECKOUT_PLANS.filter((p) => includes(PLAN_LIMITS[p].reports, needed)).join(' or ');
  return `${what} requires the ${plans} plan`;
}

/** Day after the month, as the report queries take a period: [first day, first day of the next). */
export function monthRange(año: number, mes: number): { from: string; to: string } {
  const next = mes === 12 ? { año: año + 1, mes: 1 } : { año, mes: mes + 1 };
  return { from: firstDay(año, mes), to: firstDay(next.año, next.mes) };
}

export const yearRange = (año: number) => ({ from: firstDay(año, 1), to: firstDay(año + 1, 1) });

const firstDay = (año: number, mes: number) =>
  `${String(año).padStart(4, '0')}-${String(mes).padStart(2, '0')}-01`;
