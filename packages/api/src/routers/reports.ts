import { z } from 'zod';
import { AnnualReport, DiotQuery, DiotReport, MonthlyReport, MonthQuery, YearQuery } from '../schemas/report';
import { getAnnualReport, getDiotReport, getMonthlyReport } from '../services/reports/build-reports';
import { authedProcedure, router } from '../trpc';

export const reportsRouter = router({
  monthly: authedProcedure
    .input(MonthQuery)
    .output(z.object({ data: MonthlyReport }))
    .query(async ({ ctx, input }) => ({ data: await getMonthlyReport(ctx, ctx.user.id, input) })),

  annual: authedProcedure
    .input(YearQuery)
    .output(z.object({ data: AnnualReport }))
    .query(async ({ ctx, input }) => ({ data: await getAnnualReport(ctx, ctx.user.id, input) })),

  diot: authedProcedure
    .input(DiotQuery)
    .output(z.object({ data: DiotReport }))
    .query(async ({ ctx, input }) => ({ data: await getDiotReport(ctx, ctx.user.id, input) })),
});
