import type { AppLogger } from './logger';

/**
 * Node prints process warnings to stderr as plain text, a non-JSON line in a JSON log. The one a
 * running server meets: exceljs's streaming xlsx writer hands strings to archiver, whose
 * archiver-utils calls `new Buffer(string)` (DEP0005) on the first export. Inside node_modules
 * Node would stay quiet, but `pnpm start` runs a bundle (tsup), so the call looks like ours. Node's
 * own printer is replaced by the logger: that known one at debug, any other as a warn line.
 */
export function routeWarnings(log: AppLogger): void {
  process.removeAllListeners('warning');
  process.on('warning', (warning: Error & { code?: string }) => {
    const fields = { warning: { name: warning.name, code: warning.code, message: warning.message } };
    if (warning.code === 'DEP0005')
      log.debug(fields, 'Buffer() deprecation in a dependency (archiver-utils)');
    else log.warn(fields, 'process warning');
  });
}
