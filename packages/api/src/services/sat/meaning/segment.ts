/**
 * Whether a code is a service's. c_ClaveProdServ keeps services apart by segment, its first two
 * digits (UNSPSC 70–94; 10–60 are goods, 95 land and buildings).
 */
export function isServiceCode(id: string): boolean {
  const segment = Number(id.slice(0, 2));
  return segment >= 70 && segment <= 94;
}
