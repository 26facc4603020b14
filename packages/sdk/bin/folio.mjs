#!/usr/bin/env node
// `pnpm folio` inside the repository: the command from its TypeScript source. A bin rather than a
// root script, because pnpm prints a banner on stdout before a script (and breaks `--json`), not
// before a bin. The published package runs dist/cli.js instead (publishConfig.bin).
import { register } from 'tsx/esm/api';

register();
await import('../src/cli/bin.ts');
