import createClient, {
  type Client,
  type ClientPathsWithMethod,
  type MaybeOptionalInit,
  type MethodResponse,
  type Middleware,
} from 'openapi-fetch';
import { type DownloadOptions, downloadOf, type FolioDownload } from './download';
import { FolioApiError } from './errors';
import type { components, operations, paths } from './generated/openapi';

type Method = 'get' | 'put' | 'post' | 'delete' | 'patch';
type RequiredKeysOf<T> = { [K in keyof T]-?: object extends Pick<T, K> ? never : K }[keyof T];
/** No key beyond the operation's init: a typo such as `parms:` is a type error, not a dropped filter. */
type Exact<I, Allowed> = I & { [K in Exclude<keyof I, keyof Allowed>]: never };
/** The init argument is optional exactly when the operation has no required parameter or body. */
type InitParam<I, Allowed> = RequiredKeysOf<I> extends never ? [Exact<I, Allowed>?] : [Exact<I, Allowed>];

/** What a successful call resolves to: the typed body of the 2xx answer, and the response itself. */
export interface RestSuccess<T> {
  data: T;
  response: Response;
}

/**
 * One HTTP method of the typed REST client: paths, parameters and bodies are checked against the
 * OpenAPI document; a non-2xx answer throws {@link FolioApiError} instead of resolving.
 */
export type RestCall<M extends Method> = <
  P extends ClientPathsWithMethod<Client<paths>, M>,
  I extends MaybeOptionalInit<paths[P], M>,
>(
  url: P,
  ...init: InitParam<I, NonNullable<MaybeOptionalInit<paths[P], M>>>
) => Promise<RestSuccess<MethodResponse<Client<paths>, M, P, I>>>;

/**
 * Whether a listing page is the last: its page reached `totalPages`, unless the total is a lower
 * bound (`totalExact` false: a search past 1,000 matches), where only a short or empty page ends it.
 */
export function lastPage(page: {
  data: unknown[];
  pagination: { page: number; limit: number; totalPages: number; totalExact?: boolean };
}): boolean {
  const { pagination: p, data } = page;
  if (data.length === 0) return true;
  return p.totalExact === false ? data.length < p.limit : p.page >= p.totalPages;
}

/** The item type of a paged answer (`{ data: T[], pagination }`); never for other answers. */
export type PageItem<R> = R extends { data: (infer T)[]; pagination: { totalPages: number } } ? T : never;

/** `rest.paginate`: a GET path whose answer is paged, with the same init as `rest.GET`. */
export type Paginate = <
  P extends ClientPathsWithMethod<Client<paths>, 'get'>,
  I extends MaybeOptionalInit<paths[P], 'get'>,
>(
  url: P,
  ...init: InitParam<I, NonNullable<MaybeOptionalInit<paths[P], 'get'>>>
) => AsyncGenerator<PageItem<MethodResponse<Client<paths>, 'get', P, I>>, void, undefined>;

/** A file to import: its name decides how it is read (`.xml` or `.zip`). */
export interface CfdiFile {
  name: string;
  content: Blob | Uint8Array | ArrayBuffer | string;
}

export type ImportReport = components['schemas']['ImportReport'];
export type ImportAnswer = { message: string; data: ImportReport };
/** What `PUT /api/profiles/{profileId}/efirma` and its GET answer: the certificate's facts and the consent. */
export type EfirmaMetadata = components['schemas']['EfirmaMetadata'];

/** A profile's e.firma to store: its files, the key's password and the taxpayer's consent. */
export interface EfirmaUpload {
  profileId: string;
  cer: Blob | Uint8Array | ArrayBuffer;
  key: Blob | Uint8Array | ArrayBuffer;
  password: string;
  /** Must be true: the taxpayer agrees that Folio keeps the e.firma (the text is in the document). */
  consentimiento: boolean;
}

export type SatMetadataAnswer = { message: string; data: components['schemas']['SatMetadataReport'] };

type JsonOf<O, S extends number> = O extends {
  responses: { [K in S]: { content: { 'application/json': infer B } } };
}
  ? B
  : never;
/** `{desde, hasta, tipo, contenido}`: the period (`YYYY-MM-DD`, at most a year) and what to download. */
export type SyncJobInput = operations['sat-sync-create']['requestBody']['content']['application/json'];
/** A new job: its `id` and `estado: pendiente`. */
export type SyncJobCreated = JsonOf<operations['sat-sync-create'], 202>['data'];
/** A job: its estado, SAT requests and counts (`cfdi`, `metadata`), and `error` when it failed. */
export type SyncJob = JsonOf<operations['sat-sync-get'], 200>['data'];
/** SAT's status service's answer for one CFDI and the `estatus_sat` Folio recorded. */
export type CfdiSatCheck = JsonOf<operations['invoices-checkSatStatus'], 200>['data'];

type Signal = { signal?: AbortSignal | undefined };

/**
 * SAT sync on the server (its stored e.firma; session only where the server says so): the jobs, the
 * e.firma they use and SAT's status service for one CFDI. Refusals throw {@link FolioApiError}.
 */
export interface FolioSatSync {
  /** `POST /api/profiles/{profileId}/sat-sync` (202): starts a job; follow it with `get`. */
  start(profileId: string, body: SyncJobInput, init?: Signal): Promise<SyncJobCreated>;
  /** `GET /api/sat-sync/{id}`. */
  get(jobId: string, init?: Signal): Promise<SyncJob>;
  /** `GET /api/profiles/{profileId}/sat-sync`: newest first. */
  list(profileId: string, init?: Signal): Promise<SyncJob[]>;
  /** The profile's stored e.firma: `put` as `uploadEfirma`, `get` its facts and consent, `delete` erases it. */
  efirma: {
    put(upload: EfirmaUpload, init?: Signal): Promise<EfirmaMetadata>;
    get(profileId: string, init?: Signal): Promise<EfirmaMetadata>;
    delete(profileId: string, init?: Signal): Promise<void>;
  };
  /** `POST /api/invoices/{id}/sat-status` and `/api/expenses/{id}/sat-status`: ask SAT now and record it. */
  checkInvoice(id: string, init?: Signal): Promise<CfdiSatCheck>;
  checkExpense(id: string, init?: Signal): Promise<CfdiSatCheck>;
}

/** The listing's filters and `format` (`xlsx`, the default, needs BASIC or PRO; `csv` is on every plan). */
export type InvoiceExportQuery = NonNullable<operations['invoices-export']['parameters']['query']>;
export type ExpenseExportQuery = NonNullable<operations['expenses-export']['parameters']['query']>;

/** Files the API answers with; each resolves once the headers are in, the body still streaming. */
export interface FolioExports {
  /** `GET /api/invoices/export`: the invoices listing as an xlsx or csv file. */
  invoices(query?: InvoiceExportQuery, opts?: DownloadOptions): Promise<FolioDownload>;
  /** `GET /api/expenses/export`: the expenses listing as an xlsx or csv file. */
  expenses(query?: ExpenseExportQuery, opts?: DownloadOptions): Promise<FolioDownload>;
  /** `GET /api/invoices/{id}/pdf`: the printed representation of a CFDI (its Folio id, income or expense). */
  invoicePdf(id: string, opts?: DownloadOptions): Promise<FolioDownload>;
}

type Schemas = components['schemas'];
export type MonthlyReport = Schemas['MonthlyReport'];
export type AnnualReport = Schemas['AnnualReport'];
export type DiotReport = Schemas['DiotReport'];
/** `{ profileId, año, mes }`: the profile by its id or RFC. */
export type MonthlyReportQuery = Omit<operations['reports-monthly']['parameters']['query'], 'format'>;
/** `{ profileId, año }`. */
export type AnnualReportQuery = Omit<operations['reports-annual']['parameters']['query'], 'format'>;
/** The files a report comes as: xlsx (needs `exportExcel`) or pdf (needs `exportPDF`). */
export type ReportFileFormat = 'xlsx' | 'pdf';
/** The DIOT also comes as `txt`: the batch file SAT's DIOT platform loads. */
export type DiotFileFormat = ReportFileFormat | 'txt';

/**
 * The tax reports at the caller's plan level (sections above it are absent; `nivel` says which
 * level was served). The JSON helpers resolve to the report itself; the `…File` ones to a download.
 */
export interface FolioReports {
  /** `GET /api/reports/monthly`: every plan. */
  monthly(query: MonthlyReportQuery, init?: { signal?: AbortSignal | undefined }): Promise<MonthlyReport>;
  /** `GET /api/reports/annual`: the twelve months and their totals (BASIC or PRO; FREE → 403). */
  annual(query: AnnualReportQuery, init?: { signal?: AbortSignal | undefined }): Promise<AnnualReport>;
  /** `GET /api/reports/diot`: suppliers paid in the month per tipo de operación, in SAT’s columns (PRO). */
  diot(query: MonthlyReportQuery, init?: { signal?: AbortSignal | undefined }): Promise<DiotReport>;
  monthlyFile(
    query: MonthlyReportQuery & { format: ReportFileFormat },
    opts?: DownloadOptions,
  ): Promise<FolioDownload>;
  annualFile(
    query: AnnualReportQuery & { format: ReportFileFormat },
    opts?: DownloadOptions,
  ): Promise<FolioDownload>;
  diotFile(
    query: MonthlyReportQuery & { format: DiotFileFormat },
    opts?: DownloadOptions,
  ): Promise<FolioDownload>;
}

export interface FolioRestClient {
  GET: RestCall<'get'>;
  POST: RestCall<'post'>;
  PUT: RestCall<'put'>;
  PATCH: RestCall<'patch'>;
  DELETE: RestCall<'delete'>;
  /**
   * `POST /api/profiles/{profileId}/cfdi` as multipart `files`: resolves to the import report
   * (`imported`, `duplicates`, `rejected` and each file's line: its `kind`, invoice or expense, or
   * why it was rejected), for 200 and 201 alike.
   */
  uploadCfdi(
    profileId: string,
    files: CfdiFile[],
    init?: { signal?: AbortSignal | undefined },
  ): Promise<ImportReport>;
  /**
   * `POST /api/profiles/{profileId}/sat-metadata` as multipart `files` (SAT's metadata `.txt` files
   * or `.zip` archives of them): each line answers updated, unchanged, missing_xml or invalid.
   */
  uploadSatMetadata(
    profileId: string,
    files: CfdiFile[],
    init?: { signal?: AbortSignal | undefined },
  ): Promise<RestSuccess<SatMetadataAnswer>>;
  /**
   * `PUT /api/profiles/{profileId}/efirma` as multipart (`cer`, `key`, `password`, `consentimiento`):
   * checks and stores the profile's e.firma, resolving to its certificate facts. Session only (an
   * API key gets 403); a refusal throws {@link FolioApiError} with the check's `code`.
   */
  uploadEfirma(upload: EfirmaUpload, init?: { signal?: AbortSignal | undefined }): Promise<EfirmaMetadata>;
  /**
   * Downloads: `exports.invoices(query)`, `exports.expenses(query)`, `exports.invoicePdf(id)`. A
   * refusal (403 plan, 400 too many rows or a bad filter) throws {@link FolioApiError} like any call.
   */
  exports: FolioExports;
  /**
   * The tax reports: `reports.monthly({ profileId, año, mes })`, `annual`, `diot` (typed JSON) and
   * `monthlyFile`, `annualFile`, `diotFile` with `format: 'xlsx' | 'pdf'` (the DIOT also `'txt'`,
   * SAT's batch file) (downloads, like `exports`).
   */
  reports: FolioReports;
  /** SAT sync: `satSync.start(profileId, {desde, hasta, tipo, contenido})`, `get`, `list`, `efirma.*`, `checkInvoice`. */
  satSync: FolioSatSync;
  /**
   * Every item of a paged listing, page after page (`for await (const inv of rest.paginate('/invoices',
   * { params: { query: { año: 2025 } } }))`): it follows the answer's `pagination` until `totalPages`,
   * or while pages are full when the total is a lower bound (`totalExact` false, a large search).
   * `page` in the query says where to start; `limit` sets the page size.
   */
  paginate: Paginate;
  /** The underlying openapi-fetch client: resolves `{data, error, response}` instead of throwing. */
  raw: Client<paths>;
}

export interface RestClientOptions {
  /** The API root, e.g. `http://localhost:3000/api`. */
  baseUrl: string;
  fetch?: typeof globalThis.fetch;
  headers?: Record<string, string>;
  authorization: () => Promise<string | null>;
}

const toBlob = (content: CfdiFile['content']): Blob =>
  content instanceof Blob
    ? content
    : new Blob([typeof content === 'string' ? content : new Uint8Array(content as ArrayBuffer)]);

/** Files as multipart `files`, each under its name. */
function multipart(files: CfdiFile[]): FormData {
  const form = new FormData();
  for (const file of files) form.append('files', toBlob(file.content), file.name);
  return form;
}

function efirmaForm(upload: EfirmaUpload): FormData {
  const form = new FormData();
  form.append('cer', toBlob(upload.cer), 'efirma.cer');
  form.append('key', toBlob(upload.key), 'efirma.key');
  form.append('password', upload.password);
  form.append('consentimiento', String(upload.consentimiento === true));
  return form;
}

/** Node's fetch says only "fetch failed"; the reason (ECONNREFUSED, a reset socket…) is its cause. */
function networkCause(error: unknown): string {
  const err = error as { message?: string; cause?: unknown } | undefined;
  const cause = err?.cause as
    | { message?: string; code?: string; errors?: { message?: string }[] }
    | undefined;
  if (!cause) return err?.message ?? String(error);
  const text = cause.message || cause.errors?.map((e) => e.message).join('; ') || '';
  return cause.code && !text.includes(cause.code) ? `${text} (${cause.code})`.trim() : text;
}

export function createRestClient(opts: RestClientOptions): FolioRestClient {
  const userFetch = opts.fetch;
  const raw = createClient<paths>({
    baseUrl: opts.baseUrl,
    headers: opts.headers,
    // Resolved per call, so a fetch installed after the client was made (tests, polyfills) is used.
    fetch: (request: Request) => (userFetch ?? globalThis.fetch)(request),
  });
  const auth: Middleware = {
    async onRequest({ request }) {
      if (request.headers.has('authorization')) return undefined;
      const value = await opts.authorization();
      if (value) request.headers.set('authorization', value);
      return request;
    },
  };
  // A request that got no answer names the URL it went to (not the path template) and why it failed.
  const unreachable: Middleware = {
    onError({ request, error }) {
      if (error instanceof Error && error.name === 'AbortError') return error;
      if (error instanceof Error && error.name === 'TimeoutError') {
        return new FolioApiError({ status: 0, error: 'Timeout', message: error.message, cause: error });
      }
      return new FolioApiError({
        status: 0,
        error: 'Network Error',
        message: `${request.method} ${request.url} failed: ${networkCause(error)}`,
        cause: error,
      });
    },
  };
  raw.use(auth, unreachable);

  async function send(method: Uppercase<Method>, url: string, init?: object): Promise<RestSuccess<any>> {
    let result: { data?: unknown; error?: unknown; response: Response };
    try {
      result = await raw.request(method.toLowerCase() as 'get', url as never, init as never);
    } catch (err) {
      if (err instanceof FolioApiError || (err instanceof Error && err.name === 'AbortError')) throw err;
      throw new FolioApiError({
        status: 0,
        error: 'Network Error',
        message: `${method} ${opts.baseUrl}${url} failed: ${err instanceof Error ? err.message : String(err)}`,
        cause: err,
      });
    }
    if (!result.response.ok) throw FolioApiError.fromResponse(result.response, result.error);
    return { data: result.data, response: result.response };
  }

  const method =
    <M extends Method>(m: M): RestCall<M> =>
    (url, ...init) =>
      send(m.toUpperCase() as Uppercase<Method>, url as string, init[0]) as never;

  /** A GET answered with a file: the body is handed over unread (streamed), errors thrown as usual. */
  async function download(url: string, init: object, fallbackName: string, opts: DownloadOptions = {}) {
    const { response } = await send('GET', url, { ...init, parseAs: 'stream', signal: opts.signal });
    return downloadOf(response, fallbackName, opts);
  }

  /** A report as JSON: the `data` of its answer. */
  async function report(url: string, query: object, init: { signal?: AbortSignal | undefined } = {}) {
    const { data } = await send('GET', url, {
      params: { query: { ...query, format: 'json' } },
      signal: init.signal,
    });
    return data.data;
  }
  const period = (q: { año: number; mes?: number }) =>
    q.mes === undefined ? `${q.año}` : `${q.año}-${String(q.mes).padStart(2, '0')}`;
  const reportFile = (
    url: string,
    name: string,
    query: { año: number; mes?: number; format: DiotFileFormat },
    opts?: DownloadOptions,
  ) => download(url, { params: { query } }, `${name}-${period(query)}.${query.format}`, opts);

  /** The `data` of a JSON answer. */
  const dataOf = async (m: Uppercase<Method>, url: string, init: object) =>
    (await send(m, url, init)).data.data;

  async function uploadEfirma(upload: EfirmaUpload, init?: Signal): Promise<EfirmaMetadata> {
    return dataOf('PUT', '/profiles/{profileId}/efirma', {
      params: { path: { profileId: upload.profileId } },
      body: {},
      bodySerializer: () => efirmaForm(upload),
      signal: init?.signal,
    });
  }
  const profilePath = (profileId: string) => ({ params: { path: { profileId } } });
  const idPath = (id: string) => ({ params: { path: { id } } });

  return {
    GET: method('get'),
    POST: method('post'),
    PUT: method('put'),
    PATCH: method('patch'),
    DELETE: method('delete'),
    raw,
    async uploadCfdi(profileId, files, init) {
      const { data } = await send('POST', '/profiles/{profileId}/cfdi', {
        params: { path: { profileId } },
        body: {},
        bodySerializer: () => multipart(files),
        signal: init?.signal,
      });
      return data.data;
    },
    async *paginate(url, ...rest) {
      const init = (rest[0] ?? {}) as { params?: { query?: { page?: number } } };
      let page = init.params?.query?.page ?? 1;
      for (;;) {
        const params = { ...init.params, query: { ...init.params?.query, page } };
        const { data } = await send('GET', url, { ...init, params });
        yield* data.data;
        if (lastPage(data)) return;
        page++;
      }
    },
    uploadEfirma,
    uploadSatMetadata(profileId, files, init) {
      return send('POST', '/profiles/{profileId}/sat-metadata', {
        params: { path: { profileId } },
        body: {},
        bodySerializer: () => multipart(files),
        signal: init?.signal,
      });
    },
    satSync: {
      start: (profileId, body, init) =>
        dataOf('POST', '/profiles/{profileId}/sat-sync', {
          ...profilePath(profileId),
          body,
          signal: init?.signal,
        }),
      get: (jobId, init) => dataOf('GET', '/sat-sync/{id}', { ...idPath(jobId), signal: init?.signal }),
      list: (profileId, init) =>
        dataOf('GET', '/profiles/{profileId}/sat-sync', { ...profilePath(profileId), signal: init?.signal }),
      efirma: {
        put: uploadEfirma,
        get: (profileId, init) =>
          dataOf('GET', '/profiles/{profileId}/efirma', { ...profilePath(profileId), signal: init?.signal }),
        async delete(profileId, init) {
          await send('DELETE', '/profiles/{profileId}/efirma', {
            ...profilePath(profileId),
            signal: init?.signal,
          });
        },
      },
      checkInvoice: (id, init) =>
        dataOf('POST', '/invoices/{id}/sat-status', { ...idPath(id), signal: init?.signal }),
      checkExpense: (id, init) =>
        dataOf('POST', '/expenses/{id}/sat-status', { ...idPath(id), signal: init?.signal }),
    },
    exports: {
      invoices: (query = {}, opts) =>
        download('/invoices/export', { params: { query } }, `facturas.${query.format ?? 'xlsx'}`, opts),
      expenses: (query = {}, opts) =>
        download('/expenses/export', { params: { query } }, `gastos.${query.format ?? 'xlsx'}`, opts),
      invoicePdf: (id, opts) =>
        download('/invoices/{id}/pdf', { params: { path: { id } } }, `factura-${id}.pdf`, opts),
    },
    reports: {
      monthly: (query, init) => report('/reports/monthly', query, init),
      annual: (query, init) => report('/reports/annual', query, init),
      diot: (query, init) => report('/reports/diot', query, init),
      monthlyFile: (query, opts) => reportFile('/reports/monthly', 'reporte-mensual', query, opts),
      annualFile: (query, opts) => reportFile('/reports/annual', 'reporte-anual', query, opts),
      diotFile: (query, opts) => reportFile('/reports/diot', 'diot', query, opts),
    },
  };
}
