import { runService } from '@reports/platform';
import { startAnnotation } from './service.js';

runService('annotation', (runtime) => startAnnotation(runtime));
