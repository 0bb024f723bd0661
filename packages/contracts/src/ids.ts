import { z } from 'zod';

/**
 * An id in a path: a uuid in either case, read in lower case, as every id is stored and as
 * NATS subjects name it (an upper-case id would name no subject; docs/adr/098).
 */
export const PathId = z.uuid().toLowerCase();
