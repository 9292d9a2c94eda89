import { z } from 'zod';

import { looseBoolean } from '../email/schema.js';

/** One website field (up to 3 addresses) to verify. */
export const websiteItem = z.object({
  id: z.unknown().optional(),
  website: z.string().max(2000).optional(),
  network: looseBoolean.optional(),
});

export type WebsiteItem = z.infer<typeof websiteItem>;

const oneSite = {
  website: z.string(),
  url_normalized: z.string().optional(),
  final_url: z.string().nullable().optional(),
  redirects: z.array(z.object({ url: z.string(), status: z.number() })).optional(),
  certificate_ok: z.boolean().nullable().optional(),
  reachable: z.boolean().optional(),
  status: z.number().optional(),
  note: z.string().optional().describe('why the check stopped (time limit, redirect loop, connection refused…), in the request language'),
};

/** One answer, as the OpenAPI document shows it. */
export const websiteResult = z.object({
  ...oneSite,
  website2: z.string().optional(),
  website3: z.string().optional(),
  websites: z.array(z.object({ ...oneSite, outcome: z.array(z.string()) })).optional(),
});
