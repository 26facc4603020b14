import { project } from '@folio/vitest-config';

export default project('api', { db: true });
