import type { DiotFileFormat } from '../rest';
import { saveDownload } from './export';
import { EXIT, type Io, tableWidth, UsageError } from './io';
import { intFlag, type ListFlags } from './listings';
import { annualText, diotText, monthlyText } from './report-tables';
import { openSession } from './session';

export interface ReportFlags extends Omit<ListFlags, 'search'> {
  format?: string;
  output?: string;
}

const FILE_FORMATS = ['xlsx', 'pdf'] as const;

/**
 * `folio report [diot] --profile RFC|id --año N [--mes N] [--json | --format xlsx|pdf [-o FILE]]`
 * (the DIOT also `--format txt`, SAT's batch file):
 * with --mes the month, without it the year (the annual report); `diot` needs --mes. The profile
 * goes to the server as given (it takes an RFC or an id).
 */
export async function reportCommand(io: Io, positionals: string[], flags: ReportFlags): Promise<number> {
  const [what, extra] = positionals;
  if (what !== undefined && what !== 'diot') {
    throw new UsageError(`unknown report "${what}": folio report (month or year) or folio report diot`);
  }
  if (extra !== undefined) throw new UsageError(`unexpected argument "${extra}"`);
  const profileId = flags.profile?.trim();
  if (!profileId) throw new UsageError('--profile RFC|id is required');
  const año = intFlag('año', flags.año ?? flags.anio, 1990, 2100);
  if (año === undefined) throw new UsageError('--año is required, e.g. --año 2025 (--anio works too)');
  const mes = intFlag('mes', flags.mes, 1, 12);
  if (what === 'diot' && mes === undefined) throw new UsageError('folio report diot needs --mes');
  const format = flags.format?.toLowerCase();
  const formats: readonly string[] = what === 'diot' ? [...FILE_FORMATS, 'txt'] : FILE_FORMATS;
  if (format !== undefined && !formats.includes(format)) {
    const list = `${formats.slice(0, -1).join(', ')} or ${formats.at(-1)}`;
    throw new UsageError(`--format must be ${list} (--json for the JSON)`);
  }
  if (format && flags.json) throw new UsageError('--json and --format are exclusive');
  if (flags.output !== undefined && !format) throw new UsageError('-o goes with --format xlsx|pdf');

  const session = await openSession(io, flags);
  const reports = session.client.rest.reports;
  if (format) {
    const file = { profileId, año, format: format as (typeof FILE_FORMATS)[number] };
    return saveDownload(io, flags.output, (opts) =>
      mes === undefined
        ? reports.annualFile(file, opts)
        : what === 'diot'
          ? reports.diotFile({ ...file, mes, format: format as DiotFileFormat }, opts)
          : reports.monthlyFile({ ...file, mes }, opts),
    );
  }
  const show = async <R>(report: Promise<R>, text: (r: R, width: number | undefined) => string) => {
    const r = await report;
    io.stdout.write(flags.json ? `${JSON.stringify(r, null, 2)}\n` : text(r, tableWidth(io)));
  };
  if (mes === undefined) await show(reports.annual({ profileId, año }), annualText);
  else if (what === 'diot') await show(reports.diot({ profileId, año, mes }), diotText);
  else await show(reports.monthly({ profileId, año, mes }), monthlyText);
  return EXIT.ok;
}
