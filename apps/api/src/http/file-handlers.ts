import type { FileHandlerName } from '@folio/api';
import { expensesExport, invoicePdf, invoicesExport } from './exports';
import type { FileHandler } from './file-handler';
import { annualReportFile, diotReportFile, monthlyReportFile } from './reports';
import { cfdiUpload, cfdiUploadXml, invoiceXml } from './uploads/cfdi-upload';
import { efirmaUpload } from './uploads/efirma-upload';
import { satMetadataUpload } from './uploads/sat-metadata-upload';
import { stripeWebhook } from './webhook';

/** The implementation of each file handler the route table names (a missing one fails typecheck). */
export const fileHandlers: Record<FileHandlerName, FileHandler> = {
  cfdiUpload,
  cfdiUploadXml,
  satMetadataUpload,
  efirmaUpload,
  invoiceXml,
  invoicePdf,
  invoicesExport,
  expensesExport,
  monthlyReportFile,
  annualReportFile,
  diotReportFile,
  stripeWebhook,
};
