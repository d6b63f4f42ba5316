/**
 * The MCP Registry's response shapes (`/v0.1/servers`, its OpenAPI description's `ServerList`,
 * `ServerResponse`, `ServerDetail`, `Package`, `RemoteTransport`…), as zod schemas. Entries are
 * untrusted: every string is bounded, and each entry is checked on its own so one bad entry is
 * skipped, not the page. Unknown members are dropped.
 */
import { z } from 'zod';

const text = (max: number) => z.string().max(max);

/** An `Input`: a value the user may be asked for (or a fixed `value`), with how to ask. */
export const RegistryInputSchema = z.object({
  description: text(2_000).optional(),
  isRequired: z.boolean().optional(),
  format: z.enum(['string', 'number', 'boolean', 'filepath']).optional(),
  value: text(8_000).optional(),
  isSecret: z.boolean().optional(),
  default: text(8_000).optional(),
  placeholder: text(2_000).optional(),
  choices: z.array(text(500)).max(100).optional(),
});
export type RegistryInput = z.infer<typeof RegistryInputSchema>;

const VARIABLE_NAME = /^[A-Za-z_][A-Za-z0-9_]{0,99}$/;
/** `InputWithVariables`: `{name}` in `value` is filled from `variables`. */
const WithVariables = RegistryInputSchema.extend({
  variables: z
    .record(z.string().regex(VARIABLE_NAME), RegistryInputSchema)
    .refine((vars) => Object.keys(vars).length <= 50, 'at most 50 variables')
    .optional(),
});
export type RegistryInputWithVariables = z.infer<typeof WithVariables>;

export const RegistryArgumentSchema = z.discriminatedUnion('type', [
  WithVariables.extend({ type: z.literal('positional'), valueHint: text(200).optional(), isRepeated: z.boolean().optional() }),
  WithVariables.extend({ type: z.literal('named'), name: z.string().min(1).max(200), isRepeated: z.boolean().optional() }),
]);
export type RegistryArgument = z.infer<typeof RegistryArgumentSchema>;

/** `KeyValueInput`: an environment variable or a header. */
export const RegistryKeyValueSchema = WithVariables.extend({ name: z.string().min(1).max(200) });
export type RegistryKeyValue = z.infer<typeof RegistryKeyValueSchema>;

const LocalTransportSchema = z.object({
  type: z.enum(['stdio', 'streamable-http', 'sse']),
  url: text(2_000).optional(),
  headers: z.array(RegistryKeyValueSchema).max(100).optional(),
});

export const RegistryPackageSchema = z.object({
  registryType: z.string().min(1).max(50),
  registryBaseUrl: text(2_000).optional(),
  identifier: z.string().min(1).max(500),
  version: text(255).optional(),
  fileSha256: text(64).optional(),
  runtimeHint: text(50).optional(),
  transport: LocalTransportSchema,
  runtimeArguments: z.array(RegistryArgumentSchema).max(100).optional(),
  packageArguments: z.array(RegistryArgumentSchema).max(100).optional(),
  environmentVariables: z.array(RegistryKeyValueSchema).max(200).optional(),
});
export type RegistryPackage = z.infer<typeof RegistryPackageSchema>;

export const RegistryRemoteSchema = z.object({
  type: z.enum(['streamable-http', 'sse']),
  url: z.string().min(1).max(2_000),
  headers: z.array(RegistryKeyValueSchema).max(100).optional(),
  variables: z
    .record(z.string().regex(VARIABLE_NAME), RegistryInputSchema)
    .refine((vars) => Object.keys(vars).length <= 50, 'at most 50 variables')
    .optional(),
});
export type RegistryRemote = z.infer<typeof RegistryRemoteSchema>;

/** `ServerDetail` (server.json). The registry allows 100 characters of description; a longer one is still shown. */
export const RegistryServerSchema = z.object({
  name: z
    .string()
    .min(3)
    .max(200)
    .regex(/^[a-zA-Z0-9.-]+\/[a-zA-Z0-9._-]+$/, 'not a registry name (namespace/name)'),
  description: text(2_000),
  title: text(200).optional(),
  version: z.string().min(1).max(255),
  repository: z.object({ url: text(2_000), source: text(100).optional(), subfolder: text(500).optional() }).optional(),
  websiteUrl: text(2_000).optional(),
  packages: z.array(RegistryPackageSchema).max(50).optional(),
  remotes: z.array(RegistryRemoteSchema).max(50).optional(),
});
export type RegistryServer = z.infer<typeof RegistryServerSchema>;

/** `ServerResponse`: the entry and the registry's own metadata about it. */
export const RegistryResponseSchema = z.object({
  server: RegistryServerSchema,
  _meta: z
    .object({
      'io.modelcontextprotocol.registry/official': z
        .object({ status: text(50).optional(), statusMessage: text(500).optional(), isLatest: z.boolean().optional() })
        .optional(),
    })
    .optional(),
});
export type RegistryResponse = z.infer<typeof RegistryResponseSchema>;

/** `ServerList`, before its entries are checked one by one. */
export const RegistryListSchema = z.object({
  servers: z.array(z.unknown()).max(500),
  metadata: z.object({ nextCursor: z.string().max(2_000).nullish(), count: z.number().optional() }).optional(),
});
