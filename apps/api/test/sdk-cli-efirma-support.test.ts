// The SDK's `rest.uploadEfirma` and the CLI's `folio sat efirma` and `folio support` against this
// file's app, in-process (the client's fetch is the app's; the CLI runs as a function with a
// non-terminal stdin). E.firmas from the simulator's issuer.

import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { CONSENT_TEXT, CONSENT_VERSION } from '@folio/api/sat-sync';
import { createFolioClient, FolioApiError } from '@folio/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as cliEfirma from '../../../packages/sdk/src/cli/efirma';
import type { Io } from '../../../packages/sdk/src/cli/io';
import { runCli } from '../../../packages/sdk/src/cli/main';
import { issueTestEfirma } from '../src/dev/sat/test-efirma';
import {
  createProfile,
  rfcMoral,
  setPlan,
  signUp,
  startTestApp,
  type TestApp,
  type TestUser,
} from './harness';

let t: TestApp;
let dir: string;
beforeAll(async () => {
  t = await startTestApp();
  dir = mkdtempSync(join(tmpdir(), 'folio-efirma-'));
});
afterAll(async () => {
  rmSync(dir, { recursive: true, force: true });
  await t.close();
});

const appFetch = ((input: RequestInfo | URL, init?: RequestInit) =>
  Promise.resolve(t.app.request(new Request(input, init)))) as typeof fetch;

let rfcs = 0;
async function owner(plan: 'BASIC' | 'PRO' | null) {
  const u = await signUp(t);
  if (plan) await setPlan(t, u.id, plan);
  const rfc = rfcMoral(300 + ++rfcs);
  const profile = await createProfile(t, u, { nombre: 'Comercial', rfc, tipo_persona: 'MORAL' });
  return { u, rfc, profileId: profile.id };
}

/** The `folio` command as a function: stdout and stderr captured, stdin a closed non-terminal. */
async function folio(args: string[], u: TestUser, env: Record<string, string> = {}) {
  let stdout = '';
  let stderr = '';
  const io: Io = {
    stdout: { write: (s: string) => (stdout += s) },
    stderr: { write: (s: string) => (stderr += s) },
    stdin: Object.assign(Readable.from([]), { isTTY: false }),
    env: {
      FOLIO_CONFIG: join(dir, 'none.json'),
      FOLIO_URL: 'http://folio.test',
      FOLIO_TOKEN: u.token,
      ...env,
    },
    cwd: dir,
    fetch: appFetch,
    now: () => 0,
  };
  const code = await runCli(args, io);
  return { code, stdout, stderr };
}

function efirmaFiles(rfc: string) {
  const e = issueTestEfirma(rfc);
  const cer = join(dir, `${rfc}.cer`);
  const key = join(dir, `${rfc}.key`);
  writeFileSync(cer, Buffer.from(e.cer, 'base64'));
  writeFileSync(key, Buffer.from(e.key, 'base64'));
  return { ...e, cerPath: cer, keyPath: key };
}

describe('@folio/sdk rest.uploadEfirma', () => {
  it('sends the files as multipart and resolves to the certificate’s facts; a refusal throws with its code', async () => {
    const o = await owner('BASIC');
    const e = issueTestEfirma(o.rfc);
    const client = createFolioClient({ baseUrl: 'http://folio.test/', token: o.u.token, fetch: appFetch });
    const upload = {
      profileId: o.profileId,
      cer: Buffer.from(e.cer, 'base64'),
      key: Buffer.from(e.key, 'base64'),
      password: e.password,
      consentimiento: true,
    };
    const data = await client.rest.uploadEfirma(upload);
    expect(data).toMatchObject({ rfc: o.rfc, numero_certificado: e.numeroCertificado });
    const { data: got } = await client.rest.GET('/profiles/{profileId}/efirma', {
      params: { path: { profileId: o.profileId } },
    });
    expect(got.data).toEqual(data);
    const err = await client.rest.uploadEfirma({ ...upload, password: 'otra' }).catch((x: unknown) => x);
    expect(err).toBeInstanceOf(FolioApiError);
    expect(err).toMatchObject({ status: 400, code: 'efirma_password_wrong' });
  });
});

describe('folio sat efirma', () => {
  it('shows the server’s consent text (the CLI’s copy is the same words and version)', () => {
    expect(cliEfirma.CONSENT_TEXT).toBe(CONSENT_TEXT);
    expect(cliEfirma.CONSENT_VERSION).toBe(CONSENT_VERSION);
  });

  it('with --acepto and FOLIO_EFIRMA_PASSWORD stores the e.firma and says until when it is valid', async () => {
    const o = await owner('PRO');
    const e = efirmaFiles(o.rfc);
    const args = ['sat', 'efirma', '--cer', e.cerPath, '--key', e.keyPath, '--profile', o.rfc, '--acepto'];
    const res = await folio(args, o.u, { FOLIO_EFIRMA_PASSWORD: e.password });
    expect(res.code, res.stderr).toBe(0);
    expect(res.stderr).toContain(CONSENT_TEXT);
    expect(res.stdout).toMatch(
      new RegExp(
        `^e\\.firma guardada para ${o.rfc} \\(Comercial\\): certificado ${e.numeroCertificado}, válida hasta \\d{4}-\\d{2}-\\d{2}\\.\\n$`,
      ),
    );
    expect(res.stdout + res.stderr).not.toContain(e.password);
  });

  it('without --acepto off a terminal, or without a password, nothing is sent (exit 1); missing files exit 2', async () => {
    const o = await owner('BASIC');
    const e = efirmaFiles(o.rfc);
    const base = ['sat', 'efirma', '--cer', e.cerPath, '--key', e.keyPath, '--profile', o.rfc];
    const noConsent = await folio(base, o.u, { FOLIO_EFIRMA_PASSWORD: e.password });
    expect(noConsent.code).toBe(1);
    expect(noConsent.stderr).toContain('--acepto');
    const noPassword = await folio([...base, '--acepto'], o.u);
    expect(noPassword.code).toBe(1);
    expect(noPassword.stderr).toContain('FOLIO_EFIRMA_PASSWORD');
    const noFile = await folio(['sat', 'efirma', '--cer', join(dir, 'nada.cer'), '--key', e.keyPath], o.u);
    expect(noFile.code).toBe(2);
    const res = await t.app.request(`/api/profiles/${o.profileId}/efirma`, {
      headers: { authorization: `Bearer ${o.u.token}` },
    });
    expect(res.status).toBe(404);
  });

  it('the server’s refusal is shown with its message (exit 1): FREE needs BASIC', async () => {
    const o = await owner(null);
    const e = efirmaFiles(o.rfc);
    const res = await folio(
      ['sat', 'efirma', '--cer', e.cerPath, '--key', e.keyPath, '--profile', o.rfc, '--acepto'],
      o.u,
      { FOLIO_EFIRMA_PASSWORD: e.password },
    );
    expect(res.code).toBe(1);
    expect(res.stderr).toMatch(/Forbidden \(403\): .*BASIC/);
  });
});

describe('folio support', () => {
  it('sends a request and lists it; FREE is refused naming BASIC', async () => {
    const o = await owner('BASIC');
    const sent = await folio(['support', 'No puedo exportar', 'El xlsx sale vacío'], o.u);
    expect(sent.code, sent.stderr).toBe(0);
    expect(sent.stdout).toMatch(
      /^Solicitud SOP-\d{4}-\d+ recibida \(prioridad normal\); respuesta antes de .+\n$/,
    );
    const list = await folio(['support', 'list'], o.u);
    expect(list.code).toBe(0);
    expect(list.stdout).toMatch(/^folio\s+asunto\s+prioridad\s+creada$/m);
    expect(list.stdout).toContain('No puedo exportar');
    const json = await folio(['support', 'list', '--json'], o.u);
    expect(JSON.parse(json.stdout)).toHaveLength(1);

    const free = await owner(null);
    const refused = await folio(['support', 'Hola', 'Ayuda'], free.u);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('BASIC');
    expect((await folio(['support', 'solo asunto'], o.u)).code).toBe(2);
  });
});
