import { badRequest, errorBody, MAX_EFIRMA_FILE_BYTES, storeEfirma } from '@folio/api';
import { limitBody } from '../body-limit';
import { type FileHandler, principalOf } from '../file-handler';
import { readMultipart } from './upload-form';

// PUT /api/profiles/{profileId}/efirma (docs/sat-sync.md#efirma): the e.firma's `cer` and `key` as
// files (or text fields, for PEM), `password` and `consentimiento` as fields. The service checks and
// stores it; nothing here echoes a part's content.

const KB = `${MAX_EFIRMA_FILE_BYTES / 1024} KB`;
/** Two files at their limit, the fields and the multipart framing. */
const MAX_EFIRMA_BODY_BYTES = 2 * MAX_EFIRMA_FILE_BYTES + 16 * 1024;

async function bytesOf(part: FormDataEntryValue): Promise<Uint8Array> {
  return typeof part === 'string' ? new TextEncoder().encode(part) : new Uint8Array(await part.arrayBuffer());
}

export const efirmaUpload: FileHandler = {
  bodyLimit: limitBody(MAX_EFIRMA_BODY_BYTES, `An e.firma upload may hold at most ${KB} per file`),
  async run(c, call) {
    const principal = principalOf(call); // the pipeline has refused API keys (sessionOnly)
    if (!/^multipart\/form-data\b/i.test(c.req.header('content-type') ?? '')) {
      return c.json(
        errorBody(415, 'Send multipart/form-data with `cer`, `key`, `password` and `consentimiento`'),
        415,
      );
    }
    const form = await readMultipart(c);
    if (form instanceof Response) return form;
    const cer = form.get('cer');
    const key = form.get('key');
    const password = form.get('password');
    const missing = [
      ...(cer === null ? ['cer'] : []),
      ...(key === null ? ['key'] : []),
      ...(typeof password !== 'string' || !password ? ['password'] : []),
    ];
    if (missing.length || cer === null || key === null || typeof password !== 'string') {
      throw badRequest(
        `The upload lacks ${missing.join(', ')}`,
        'validation_failed',
        missing.map((path) => ({ path, message: `${path} is required` })),
      );
    }
    for (const [name, part] of [
      ['cer', cer],
      ['key', key],
    ] as const) {
      if (typeof part !== 'string' && part.size > MAX_EFIRMA_FILE_BYTES)
        return c.json(errorBody(413, `The ${name} file may hold at most ${KB}`), 413);
    }
    const data = await storeEfirma(call.ctx, principal, c.req.param('profileId') ?? '', {
      cer: await bytesOf(cer),
      key: await bytesOf(key),
      password,
      consentimiento: form.get('consentimiento') === 'true',
    });
    return c.json({ data }, 200);
  },
};
