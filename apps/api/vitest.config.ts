import { project } from '@folio/vitest-config';

export default project('server', { db: true });
