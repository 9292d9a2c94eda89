import type { FastifyPluginAsync } from 'fastify';

import { ConsoleError, type ConsoleKit } from '../kit.js';

/** The console's static files (scripts, styles), served from src/console/assets. */
export const assetsPages: FastifyPluginAsync<ConsoleKit> = async (scope, kit) => {
  const { assets } = kit;
  scope.get('/assets/:name', async (req, reply) => {
    const asset = assets.get((req.params as { name: string }).name);
    if (!asset) throw new ConsoleError(404, 'no_asset');
    return reply.header('content-type', asset.type).header('cache-control', 'public, max-age=3600').send(asset.body);
  });
};
