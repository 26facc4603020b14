import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: { name: 'email', include: ['src/**/*.test.{ts,tsx}'], testTimeout: 30000, hookTimeout: 60000 },
});
