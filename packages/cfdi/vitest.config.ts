import { defineConfig } from 'vitest/config';
export default defineConfig({ test: { name: 'cfdi', include: ['src/**/*.test.ts'] } });
