import { runService } from '@reports/platform';
import { startEmbedding } from './service.js';

runService('embedding', (runtime) => startEmbedding(runtime));
