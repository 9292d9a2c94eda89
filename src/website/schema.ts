import { z } from 'zod';

import { looseBoolean } from '../email/schema.js';

/** One website field (up to 3 addresses) to verify. */
export const websiteItem = z.object({
  id: z.unknown().optional(),
  website: z.string().max(2000).optional(),
  network: looseBoolean.optional(),
});

export type WebsiteItem = z.infer<typeof websiteItem>;
