import { type ParseArgsConfig, parseArgs } from 'node:util';
import { FolioApiError } from '../errors';
import { satEfirmaCommand } from './efirma';
import { expenseAddCommand, expensesCommand } from './expenses';
import { exportCommand, pdfCommand } from './export';
import { importCommand } from './import';
import { CliError, EXIT, type Io, UsageError } from './io';
import { keysCommand } from './keys';
import { invoicesCommand, pendingCommand, profilesCommand } from './listings';
import { login, logout } from './login';
import { profileCreateCommand } from './profile-create';
import { reportCommand } from './report';
import { satSearchCommand } from './sat';
import { satStatusCommand, satSyncCommand } from './sat-sync';
import { explain, openSession } from './session';
import { supportCommand, supportListCommand } from './support';
import { upgradeCommand } from './upgrade';

declare const __SDK_VERSION__: string | undefined;
const VERSION = typeof __SDK_VERSION__ === 'string' ? __SDK_VERSION__ : 'dev';

export const HELP = `folio: the Folio API from the command line

Usage
  folio login [--email EMAIL] [--password-stdin]      store an access token for --url
  folio logout                                         revoke it and forget it
  folio whoami                                         the account the token belongs to
  folio profiles [--json]                              your taxpayer profiles
  folio profiles create --rfc RFC --nombre NAME [--tipo FISICA|MORAL] [--regimen 601]... [--json]
                                                       add a profile (the type follows from the RFC)
  folio import <folder|file.zip|file.xml> --profile <RFC|id> [--batch N] [--verbose] [--json]
                                                       upload CFDI XML (folders are walked); exits 1
                                                       when any file was rejected or not sent; stops
                                                       when the server is gone or the plan's monthly
                                                       limit is reached; Ctrl-C prints the summary
  folio invoices [--profile <RFC|id>] [--mes N] [--año N] [--search TEXT] [--json]
                                                       income CFDI as a table (--anio works too)
  folio pending [--profile <RFC|id>] [--json]          PPD invoices not fully paid, oldest first
  folio expenses [--profile <RFC|id>] [--mes N] [--año N] [--search TEXT] [--json]
                                                       expenses (received CFDI and manual) as a table
  folio expense add --profile <RFC|id> --fecha YYYY-MM-DD --concepto TEXT --subtotal N [--iva N]
               [--categoria TEXT] [--rfc RFC --nombre NAME] [--pagado] [--json]
                                                       a manual expense (no CFDI); opens the month's
                                                       period first when it has none; without --iva
                                                       the server computes it
  folio sat search <texto> [--limit N] [--json]        the SAT product and service catalog
  folio sat sync --cer FILE --key FILE --desde YYYY-MM-DD --hasta YYYY-MM-DD [--profile <RFC|id>]
               [--tipo emitidos|recibidos|ambos] [--contenido cfdi|metadata|ambos]
               [--sat simulator|sat] [--password-stdin] [--json]
                                                       LOCAL MODE: downloads from SAT on this machine
                                                       with your e.firma (it never leaves it) and
                                                       uploads the CFDI and metadata to Folio's
                                                       imports; the profile is the e.firma's RFC
                                                       unless --profile; --sat defaults to the
                                                       simulator of a localhost server, else SAT
  folio sat sync --profile <RFC|id> --desde YYYY-MM-DD --hasta YYYY-MM-DD
               [--tipo emitidos|recibidos|ambos] [--contenido cfdi|metadata|ambos] [--json]
                                                       SERVER MODE (no --cer/--key): a sync job on the
                                                       server with the e.firma stored there (BASIC or
                                                       PRO; needs folio login): prints the job's
                                                       estado every 2 s until it ends, then the counts
  folio sat efirma --cer FILE --key FILE --profile <RFC|id> [--acepto] [--password-stdin] [--json]
                                                       store the profile's e.firma on the server for
                                                       server mode (BASIC or PRO; needs folio login):
                                                       shows the consent and needs --acepto or a yes
  folio sat status <UUID> [--json]                     ask SAT's status service for one invoice or
                                                       expense and record its answer (BASIC or PRO)
  folio support "asunto" "mensaje" [--profile <RFC|id>] [--json]
                                                       ask for support (BASIC: email, PRO: priority)
  folio support list [--json]                          your support requests, newest first
  folio upgrade [--plan BASIC|PRO] [--anual] [--complete-dev]
                                                       a checkout for the plan (default PRO): prints
                                                       the URL to pay at; --complete-dev pays it at
                                                       once on a development server (offline billing)
  folio export invoices|expenses [--profile <RFC|id>] [--mes N] [--año N] [--search TEXT]
               [--regimen 601] [--tipo-comprobante I|E|P|T|N] [--tipo PUE|PPD|COMPLEMENTO_PAGO]
               [--categoria TEXT] [--format xlsx|csv] [-o FILE|FOLDER]
                                                       the listing as a spreadsheet (xlsx needs the
                                                       BASIC or PRO plan; csv is on every plan; --tipo
                                                       and --categoria are for expenses); saved under
                                                       the server's name (e.g. facturas-RFC-2025-03.xlsx)
                                                       without -o; prints the path written
  folio pdf <UUID> [-o FILE|FOLDER]                    the printed representation (PDF) of a CFDI,
                                                       income or expense, by its UUID (folio fiscal)
  folio report --profile <RFC|id> --año N [--mes N] [--json | --format xlsx|pdf [-o FILE|FOLDER]]
                                                       the tax report as tables: with --mes the month
                                                       (ingresos/egresos, flujo, IVA, ISR, pendientes,
                                                       RESICO, advertencias: what your plan includes);
                                                       without --mes the year, month by month (BASIC
                                                       or PRO); --json the server's JSON; --format the
                                                       file (xlsx needs BASIC or PRO)
  folio report diot --profile <RFC|id> --año N --mes N [--json | --format xlsx|pdf|txt [-o FILE]]
                                                       suppliers paid in the month (PRO); txt is the
                                                       batch file SAT's DIOT platform loads
  folio keys list [--json]                             your active API keys (needs folio login)
  folio keys create --name NAME [--scope read|write] [--expires-in-days N] [--json]
                                                       a new API key, printed once on stdout
  folio keys revoke <id>                               revoke an API key at once

Options for every command
  --url URL        the API (default: $FOLIO_URL, the URL saved by login, http://localhost:3000)
  --token TOKEN    an access token (default: $FOLIO_TOKEN, the token saved by login)
  --config FILE    the config file (default: $FOLIO_CONFIG, ~/.config/folio/config.json)
  -h, --help       this text (after a command: that command's help)
  -v, --version    the version

Environment: FOLIO_URL, FOLIO_API_KEY (an API key for scripts; used instead of the stored login),
FOLIO_TOKEN, FOLIO_CONFIG, FOLIO_EMAIL, FOLIO_PASSWORD, FOLIO_EFIRMA_PASSWORD (the e.firma's
password: else --password-stdin, else asked without echo; never a flag, which shell history keeps).
Files are written whole or not at all (a temporary file renamed at the end); an existing file is
replaced. Downloads show their progress on stderr when it is a terminal.
Exit codes: 0 fine, 1 failed or something rejected, 2 bad command line, 130 interrupted.
`;

const GLOBAL = {
  url: { type: 'string' },
  token: { type: 'string' },
  config: { type: 'string' },
  help: { type: 'boolean', short: 'h' },
  version: { type: 'boolean', short: 'v' },
} as const satisfies ParseArgsConfig['options'];

const LIST = {
  ...GLOBAL,
  profile: { type: 'string', short: 'p' },
  json: { type: 'boolean' },
} as const satisfies ParseArgsConfig['options'];

const COMMANDS = {
  login: {
    ...GLOBAL,
    email: { type: 'string' },
    password: { type: 'string' },
    'password-stdin': { type: 'boolean' },
  },
  logout: GLOBAL,
  whoami: { ...GLOBAL, json: { type: 'boolean' } },
  profiles: LIST,
  'profiles create': {
    ...GLOBAL,
    rfc: { type: 'string' },
    nombre: { type: 'string' },
    tipo: { type: 'string' },
    regimen: { type: 'string', multiple: true },
    json: { type: 'boolean' },
  },
  import: {
    ...LIST,
    batch: { type: 'string' },
    verbose: { type: 'boolean' },
    quiet: { type: 'boolean', short: 'q' },
  },
  invoices: {
    ...LIST,
    mes: { type: 'string' },
    año: { type: 'string' },
    anio: { type: 'string' },
    search: { type: 'string' },
  },
  pending: LIST,
  expenses: {
    ...LIST,
    mes: { type: 'string' },
    año: { type: 'string' },
    anio: { type: 'string' },
    search: { type: 'string' },
  },
  'expense add': {
    ...GLOBAL,
    profile: { type: 'string', short: 'p' },
    fecha: { type: 'string' },
    concepto: { type: 'string' },
    subtotal: { type: 'string' },
    iva: { type: 'string' },
    categoria: { type: 'string' },
    rfc: { type: 'string' },
    nombre: { type: 'string' },
    pagado: { type: 'boolean' },
    json: { type: 'boolean' },
  },
  'sat search': { ...GLOBAL, limit: { type: 'string' }, json: { type: 'boolean' } },
  'sat efirma': {
    ...LIST,
    cer: { type: 'string' },
    key: { type: 'string' },
    acepto: { type: 'boolean' },
    'password-stdin': { type: 'boolean' },
  },
  'sat sync': {
    ...LIST,
    desde: { type: 'string' },
    hasta: { type: 'string' },
    tipo: { type: 'string' },
    contenido: { type: 'string' },
    cer: { type: 'string' },
    key: { type: 'string' },
    sat: { type: 'string' },
    'password-stdin': { type: 'boolean' },
  },
  'sat status': { ...GLOBAL, json: { type: 'boolean' } },
  support: LIST,
  'support list': { ...GLOBAL, json: { type: 'boolean' } },
  upgrade: {
    ...GLOBAL,
    plan: { type: 'string' },
    anual: { type: 'boolean' },
    'complete-dev': { type: 'boolean' },
  },
  export: {
    ...GLOBAL,
    profile: { type: 'string', short: 'p' },
    mes: { type: 'string' },
    año: { type: 'string' },
    anio: { type: 'string' },
    search: { type: 'string' },
    regimen: { type: 'string' },
    'tipo-comprobante': { type: 'string' },
    tipo: { type: 'string' },
    categoria: { type: 'string' },
    format: { type: 'string' },
    output: { type: 'string', short: 'o' },
  },
  pdf: { ...GLOBAL, output: { type: 'string', short: 'o' } },
  report: {
    ...LIST,
    mes: { type: 'string' },
    año: { type: 'string' },
    anio: { type: 'string' },
    format: { type: 'string' },
    output: { type: 'string', short: 'o' },
  },
  keys: {
    ...GLOBAL,
    name: { type: 'string' },
    scope: { type: 'string' },
    'expires-in-days': { type: 'string' },
    json: { type: 'boolean' },
  },
} as const satisfies Record<string, ParseArgsConfig['options']>;

type Command = keyof typeof COMMANDS;
const isCommand = (s: string | undefined): s is Command => s !== undefined && Object.hasOwn(COMMANDS, s);

/**
 * One command's help: its lines of the usage (those starting `folio <name>`, with their continuation
 * lines) and the options every command takes.
 */
export function commandHelp(name: string): string {
  const usage = HELP.slice(HELP.indexOf('Usage\n') + 6, HELP.indexOf('\nOptions for every command'));
  const blocks = usage.split(/\n(?= {2}folio )/).filter((b) => {
    const words = b.trim().split(/\s+/);
    return words[1] === name.split(' ')[0] && (!name.includes(' ') || words[2] === name.split(' ')[1]);
  });
  const options = HELP.slice(HELP.indexOf('Options for every command'));
  return `Usage\n${blocks.join('\n').replace(/\n*$/, '\n')}\n${options}`;
}

/** `profiles create`, `expense add`, `sat search` and the like are commands of their own; otherwise the first word names it. */
function commandOf(argv: string[]): [string | undefined, string[]] {
  const two = argv.slice(0, 2).join(' ');
  return isCommand(two) && argv.length >= 2 ? [two, argv.slice(2)] : [argv[0], argv.slice(1)];
}

/** Runs one `folio` command line; resolves to the exit code. Never throws. */
export async function runCli(argv: string[], io: Io): Promise<number> {
  const [name, rest] = commandOf(argv);
  if (!name || name === '--help' || name === '-h' || name === 'help') {
    io.stdout.write(HELP);
    return name ? EXIT.ok : EXIT.usage;
  }
  if (name === '--version' || name === '-v') {
    io.stdout.write(`${VERSION}\n`);
    return EXIT.ok;
  }
  // `folio expense` and `folio sat` alone name no command: their help says which ones there are.
  if (name === 'expense' || name === 'sat') {
    io.stderr.write(commandHelp(name));
    return EXIT.usage;
  }
  if (!isCommand(name)) {
    io.stderr.write(`folio: unknown command "${name}"\n\n${HELP}`);
    return EXIT.usage;
  }
  let values: Record<string, string | string[] | boolean | undefined>;
  let positionals: string[];
  try {
    ({ values, positionals } = parseArgs({
      args: rest,
      options: COMMANDS[name],
      allowPositionals: true,
      strict: true,
    }) as { values: Record<string, string | string[] | boolean | undefined>; positionals: string[] });
  } catch (err) {
    io.stderr.write(`folio ${name}: ${(err as Error).message}\nRun \`folio ${name} --help\` for usage.\n`);
    return EXIT.usage;
  }
  if (values.help) {
    io.stdout.write(commandHelp(name));
    return EXIT.ok;
  }
  // keys, export, pdf, report, sat search, sat status and support check their own arguments.
  if (
    !['keys', 'export', 'pdf', 'report', 'sat search', 'sat status', 'support'].includes(name) &&
    positionals.length > (name === 'import' ? 1 : 0)
  ) {
    io.stderr.write(`folio ${name}: unexpected argument "${positionals.at(-1)}"\n`);
    return EXIT.usage;
  }
  try {
    switch (name) {
      case 'login':
        return await login(io, values);
      case 'logout':
        return await logout(io, values as Record<string, string>);
      case 'whoami':
        return await whoami(io, values);
      case 'profiles':
        return await profilesCommand(io, values);
      case 'profiles create':
        return await profileCreateCommand(io, values);
      case 'import':
        return await importCommand(io, positionals[0], values);
      case 'invoices':
        return await invoicesCommand(io, values);
      case 'pending':
        return await pendingCommand(io, values);
      case 'expenses':
        return await expensesCommand(io, values);
      case 'expense add':
        return await expenseAddCommand(io, values);
      case 'sat search':
        return await satSearchCommand(io, positionals, values);
      case 'sat efirma':
        return await satEfirmaCommand(io, values);
      case 'sat sync':
        // With the e.firma's files it is local mode (loaded only then: SAT's client takes a
        // good part of a second to load); without them, the server's job.
        return values.cer || values.key
          ? await (await import('./sat-local')).satLocalSyncCommand(io, values)
          : await satSyncCommand(io, values);
      case 'sat status':
        return await satStatusCommand(io, positionals, values);
      case 'support':
        return await supportCommand(io, positionals, values as Record<string, string>);
      case 'support list':
        return await supportListCommand(io, values);
      case 'upgrade':
        return await upgradeCommand(io, values);
      case 'keys':
        return await keysCommand(io, positionals, values);
      case 'export':
        return await exportCommand(io, positionals, values);
      case 'pdf':
        return await pdfCommand(io, positionals, values);
      case 'report':
        return await reportCommand(io, positionals, values);
    }
  } catch (err) {
    if (err instanceof UsageError) {
      io.stderr.write(`folio ${name}: ${err.message}\nRun \`folio ${name} --help\` for usage.\n`);
      return EXIT.usage;
    }
    const url = typeof values.url === 'string' ? values.url : (io.env.FOLIO_URL ?? 'the API');
    const message = err instanceof CliError ? err.message : explain(err, url);
    io.stderr.write(`folio ${name}: ${message}\n`);
    if (!(err instanceof CliError) && !(err instanceof FolioApiError) && io.env.FOLIO_DEBUG) {
      io.stderr.write(`${(err as Error)?.stack ?? ''}\n`);
    }
    return EXIT.failed;
  }
}

async function whoami(io: Io, flags: { url?: string; token?: string; config?: string; json?: boolean }) {
  const session = await openSession(io, flags);
  const { data } = await session.client.rest.GET('/auth/me');
  if (flags.json) io.stdout.write(`${JSON.stringify(data.user, null, 2)}\n`);
  else {
    const name = [data.user.nombre, data.user.apellido].filter(Boolean).join(' ');
    io.stdout.write(
      `${data.user.email}${name ? ` (${name})` : ''} on ${session.url}${data.user.email_verified ? '' : ' — email not verified yet'}\n`,
    );
  }
  return EXIT.ok;
}
