import { describe, expect, it } from 'vitest';
import { reportBody } from './report-body';

describe('a report written as JSON text', () => {
  it('refuses a report off its schema as a server error, not the caller’s (a plain Error, no ZodError)', () => {
    let thrown: unknown;
    try {
      reportBody('diot', { profile: { id: 'p', rfc: 'X', nombre: 'Y' } });
    } catch (err) {
      thrown = err;
    }
    expect(thrown).toBeInstanceOf(Error);
    expect((thrown as Error).constructor).toBe(Error);
    expect((thrown as Error).message).toMatch(/^the diot report does not match its schema/);
  });
});
