import {
  DiotFields,
  DiotQuery,
  MonthFields,
  MonthQuery,
  type ReportKind,
  reportFile,
  YearFields,
  YearQuery,
} from '@folio/api';
import type { Hono } from 'hono';
import type { z } from 'zod';
import { queryInput, serviceRoute } from './service-route';
import type { AppDeps, AppEnv } from './types';

const FILES = ['xlsx', 'pdf'];

/**
 * GET /api/reports/{monthly,annual,diot}?format=xlsx|pdf: the report as a workbook or PDF download;
 * the DIOT's format=txt: SAT's batch file.
 * Mounted before the REST layer, which answers json from the procedure.
 */
export function mountReportFiles(app: Hono<AppEnv>, deps: AppDeps): void {
  const routes: {
    kind: ReportKind;
    fields: z.ZodObject;
    query: typeof MonthQuery | typeof YearQuery | typeof DiotQuery;
    files: string[];
  }[] = [
    { kind: 'monthly', fields: MonthFields, query: MonthQuery, files: FILES },
    { kind: 'annual', fields: YearFields, query: YearQuery, files: FILES },
    { kind: 'diot', fields: DiotFields, query: DiotQuery, files: [...FILES, 'txt'] },
  ];
  for (const route of routes) {
    const known = Object.keys(route.fields.shape);
    app.get(`/api/reports/${route.kind}`, (c, next) => {
      const format = c.req.query('format');
      if (!format || !route.files.includes(format)) return next();
      return serviceRoute(
        c,
        deps,
        async (ctx, auth) => {
          const q = queryInput(c, route.query);
          const file = await reportFile(ctx, auth.user.id, route.kind, q);
          return new Response(file.body, { status: 200, headers: file.headers });
        },
        known,
      );
    });
  }
}
