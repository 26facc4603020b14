import { project } from '@folio/vitest-config';

export default project('billing-dev');
