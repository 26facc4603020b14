// Where the SAT clients talk, apart from the gateway (which loads the @nodecfdi clients).

/** Where the clients talk: SAT, or the simulator mounted at `{origin}/__dev/sat`. */
export type SatTarget = { kind: 'sat' } | { kind: 'simulator'; origin: string };

export const SIMULATOR_BASE = '/__dev/sat';

/** The simulator's endpoints, one per SAT service. */
export const simulatorPaths = {
  authenticate: `${SIMULATOR_BASE}/ws/autenticacion`,
  query: `${SIMULATOR_BASE}/ws/solicitud`,
  verify: `${SIMULATOR_BASE}/ws/verificacion`,
  download: `${SIMULATOR_BASE}/ws/descarga`,
  status: `${SIMULATOR_BASE}/ws/consulta`,
} as const;
