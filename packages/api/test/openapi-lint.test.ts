import { createConfig, lintFromString, type NormalizedProblem } from '@redocly/openapi-core';
import { describe, expect, it } from 'vitest';
import { buildOpenApiDocument } from '../src/openapi';

/**
 * The document as generators and linters see it, checked by Redocly's own rules rather than ours:
 * its `recommended` set (errors and warnings), and from its stricter rules the ones the issue named:
 * a description on every operation, a license with its SPDX identifier, the request id and
 * Retry-After headers on the answers that carry them.
 */
const doc = buildOpenApiDocument({ version: '1.0.0', serverUrl: 'https://folio.test/api' });

async function lint(): Promise<NormalizedProblem[]> {
  const config = await createConfig({
    extends: ['recommended'],
    rules: {
      'operation-description': 'error',
      'info-license-strict': 'error',
      'response-contains-header': {
        severity: 'error',
        names: {
          '2XX': ['X-Request-Id'],
          '4XX': ['X-Request-Id'],
          '5XX': ['X-Request-Id'],
          '429': ['X-Request-Id', 'Retry-After'],
        },
      },
    },
  });
  const problems = await lintFromString({ source: JSON.stringify(doc), absoluteRef: 'openapi.json', config });
  // The answers of `webhooks` are the receiver's, not Folio's: they carry no X-Request-Id of ours.
  return problems.filter(
    (p) =>
      !(
        p.ruleId === 'response-contains-header' &&
        p.location.every((l) => l.pointer?.startsWith('#/webhooks/'))
      ),
  );
}

const described = (p: NormalizedProblem) =>
  `${p.severity} ${p.ruleId}: ${p.message} at ${p.location.map((l) => l.pointer).join(', ')}`;

describe("Redocly's lint of /api/openapi.json", () => {
  it('finds nothing with the recommended rules, operation descriptions, license and headers', {
    timeout: 60_000,
  }, async () => {
    expect((await lint()).map(described)).toEqual([]);
  });
});
