import { z } from 'zod';
import { PROFILE_ALIAS, withAliases } from './aliases';
import { expenseFilters, listFilters } from './pagination';

export const EXPORT_FORMATS = ['xlsx', 'csv'] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

const format = z
  .enum(EXPORT_FORMATS)
  .default('xlsx')
  .describe('xlsx (BASIC or PRO) or csv (every plan; UTF-8 with BOM, RFC 4180)');

/** The invoice listing's filters (no page: the whole filtered set) and the file's format. */
export const InvoiceExportFields = z.object({ ...listFilters, format });
export const InvoiceExportQuery = withAliases(InvoiceExportFields, PROFILE_ALIAS);
/** The expense listing's filters and the file's format. */
export const ExpenseExportFields = z.object({ ...listFilters, ...expenseFilters, format });
export const ExpenseExportQuery = withAliases(ExpenseExportFields, PROFILE_ALIAS);
