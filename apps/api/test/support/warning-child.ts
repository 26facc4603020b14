// A process that logs like the server (createLogger + routeWarnings) and then meets Node warnings:
// DEP0005 from a Buffer() call outside node_modules (as the bundled archiver-utils is), and another.
import { createLogger } from '../../src/logger';
import { routeWarnings } from '../../src/warnings';

const log = createLogger('debug');
routeWarnings(log);
// The deprecated constructor, called as archiver-utils calls it.
new (Buffer as any)('xlsx');
process.emitWarning('something else', 'ExperimentalWarning');
setImmediate(() => log.info('done'));
