import { packageConfig } from '../vitest.shared.mjs';

export default packageConfig(import.meta.dirname, {
  // Deploy checks (deploy/*.int.test.ts) render the manifests with kustomize: no servers.
  include: ['**/*.e2e.test.ts', 'deploy/**/*.int.test.ts'],
  testTimeout: 180_000,
  hookTimeout: 180_000,
  fileParallelism: false,
});
