import { packageConfig } from '../vitest.shared.mjs';

export default packageConfig(import.meta.dirname, {
  include: ['**/*.e2e.test.ts'],
  testTimeout: 180_000,
  hookTimeout: 180_000,
  fileParallelism: false,
});
