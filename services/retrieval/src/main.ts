import { runService } from '@reports/platform';
import { startRetrieval } from './service.js';

runService('retrieval', (runtime) => startRetrieval(runtime));
