import { z } from 'zod';
import { IdString, method } from './method';
import type { InstallPlan } from './install';

/**
 * MCP bundles (`.mcpb`: a zip with a `manifest.json` and the server's files). `openBundle` reads and
 * checks one — manifest schema, paths, sizes, entry point, platform, signature — without writing
 * anything, and answers with the install plan; `install` with the plan's source unpacks it into the
 * data directory's `bundles/<id>/` and adds the server.
 */

/** Where the bundle is: a finished upload, or an open request the operating system handed over. */
export const OpenBundleSchema = z.union([z.object({ uploadId: IdString }), z.object({ openRequestId: IdString })]);

export const bundleMethods = {
  /** Checks a bundle and plans its install; a refused bundle is an `invalid_input` error saying why. */
  openBundle: method<typeof OpenBundleSchema, InstallPlan>(OpenBundleSchema),
};
