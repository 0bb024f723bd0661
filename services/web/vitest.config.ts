import { packageConfig } from '../../vitest.shared.mjs';

export default packageConfig(import.meta.dirname);
