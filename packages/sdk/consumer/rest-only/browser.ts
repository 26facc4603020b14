/**
 * A browser app that speaks only REST (scripts/sdk-consume.sh): `@folio/sdk/rest` installed without
 * tRPC, type-checked with the DOM lib, no Node types, no esnext.disposable and skipLibCheck off.
 */
import { createFolioRestClient, FolioApiError, type Invoice } from '@folio/sdk/rest';

const folio = createFolioRestClient({ baseUrl: location.origin, token: localStorage.getItem('token') });
try {
  const { data } = await folio.GET('/invoices', { params: { query: { mes: 3, año: 2025 } } });
  const first: Invoice | undefined = data.data[0];
  document.title = first ? first.uuid : 'sin facturas';
  // A download offered to the user under the server's file name.
  const file = await folio.exports.invoices({ mes: 3, año: 2025, format: 'csv' });
  const link = document.createElement('a');
  link.href = URL.createObjectURL(await file.blob());
  link.download = file.filename;
} catch (err) {
  if (err instanceof FolioApiError) document.title = `${err.status} ${err.message}`;
}
