import { runService } from '@reports/platform';
import { startAdmin } from './service.js';

runService('admin', (runtime) => startAdmin(runtime));
