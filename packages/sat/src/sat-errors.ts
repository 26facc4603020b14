// What the SAT gateway throws, apart from the gateway: callers that only catch these (the status
// check, the e.firma upload) do not load the @nodecfdi clients with them (docs/benchmarks.md#memory).

/** SAT could not be reached or failed on its side (network, timeout, HTTP 5xx): retry with back-off. */
export class SatUnavailable extends Error {
  override name = 'SatUnavailable';
}

/** SAT refused the call itself (a SOAP fault, HTTP 4xx: a bad signature, a revoked e.firma). */
export class SatRefused extends Error {
  override name = 'SatRefused';
}

/** A query Folio refused before sending it (QueryParameters.validate: SAT would refuse it too). */
export class SatQueryInvalid extends Error {
  override name = 'SatQueryInvalid';
  constructor(readonly problems: string[]) {
    super(`SAT would refuse this query: ${problems.join(' ')}`);
  }
}
