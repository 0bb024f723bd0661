import { runService } from '@reports/platform';
import { startIngestion } from './service.js';

runService('ingestion', (runtime) => startIngestion(runtime));
