import { extractSignatureBlock, verifyMcpbFile } from '@anthropic-ai/mcpb/node';
import fs from 'node:fs';
import { escapeHiddenChars, formatBytes, formatCommandLine, type InstallAbout } from '@contract';
import {
  bundleIdOf,
  checkManifestAgainstArchive,
  MAX_MANIFEST_BYTES,
  parseManifest,
  platformConfig,
  type BundleManifest,
} from './bundle-manifest';
import { checkZip, ZipRefusedError, type CheckedZip, type ZipLimits } from '../safe-zip';

/** Signature of a bundle, as `@anthropic-ai/mcpb` verifies it against the system's trusted certificates. */
export interface BundleSignature {
  status: 'signed' | 'self-signed' | 'unsigned';
  publisher?: string;
  issuer?: string;
}

/** A bundle that passed every check: its archive, its manifest and what it takes to run. */
export interface InspectedBundle {
  id: string;
  manifest: BundleManifest;
  zip: CheckedZip;
  signature: BundleSignature;
}

/**
 * Reads and checks a `.mcpb` file without writing anything: size, signature block (the zip is what
 * precedes it), archive entries, manifest schema, entry point, platform. Throws `ZipRefusedError`
 * with the reason when the bundle cannot be installed.
 */
export async function inspectBundle(file: string, options: { maxBytes: number; limits?: ZipLimits }): Promise<InspectedBundle> {
  const size = fs.statSync(file).size;
  if (size > options.maxBytes) throw new ZipRefusedError(`the file is larger than ${formatBytes(options.maxBytes)}`);
  const bytes = fs.readFileSync(file);
  const { originalContent, pkcs7Signature } = extractSignatureBlock(bytes);
  const zip = await checkZip(originalContent, options.limits);
  const manifest = parseManifest(await zip.read('manifest.json', MAX_MANIFEST_BYTES));
  checkManifestAgainstArchive(manifest, zip.items);
  const signature: BundleSignature = pkcs7Signature ? await verifySignature(file) : { status: 'unsigned' };
  return { id: bundleIdOf(manifest), manifest, zip, signature };
}

async function verifySignature(file: string): Promise<BundleSignature> {
  try {
    const info = await verifyMcpbFile(file);
    return {
      status: info.status,
      ...(info.publisher ? { publisher: info.publisher } : {}),
      ...(info.issuer ? { issuer: info.issuer } : {}),
    };
  } catch {
    return { status: 'unsigned' };
  }
}

const RUNTIMES: Record<BundleManifest['server']['type'], { name: string; runs: string; command: RegExp }> = {
  node: { name: 'Node.js', runs: 'Node.js (Patchbay’s own)', command: /^node(\.exe)?$/i },
  python: { name: 'Python', runs: 'Python (with uv)', command: /^(python3?|uv)(\.exe)?$/i },
  uv: { name: 'Python', runs: 'Python (uv)', command: /^uv(\.exe)?$/i },
  binary: { name: 'a program in the bundle', runs: 'A program in the bundle', command: /^/ },
};

/**
 * What a bundle really runs: the runtime its type names only when its command is that runtime; any other
 * command (`sh -c …` in a "node" bundle) is named as it is, so the dialog never vouches for what it is not.
 */
export function describeRuns(manifest: BundleManifest, platform: NodeJS.Platform = process.platform): string {
  const runtime = RUNTIMES[manifest.server.type];
  const { command, args = [] } = platformConfig(manifest, platform);
  if (runtime.command.test(command)) return runtime.runs;
  const shown = escapeHiddenChars(formatCommandLine(command, args.slice(0, 2)) + (args.length > 2 ? ' …' : ''));
  return `${shown} — a program from this computer, not ${runtime.name} as the bundle’s type says`;
}

/** What the install dialog shows about a bundle. */
export function describeBundle(bundle: InspectedBundle, nodeVersion = process.versions.node): InstallAbout {
  const { manifest, signature } = bundle;
  const list = (items: { name: string }[] | undefined, generated: boolean | undefined) =>
    items && items.length > 0 ? items.map((item) => item.name).join(', ') : generated ? 'listed when it runs' : 'none declared';
  const compatibility = manifest.compatibility;
  const warnings: string[] = [];
  const nodeRange = compatibility?.runtimes?.node;
  const minimum = nodeRange ? /^\s*>=?\s*v?(\d+)/.exec(nodeRange) : null;
  if (manifest.server.type === 'node' && minimum && Number(nodeVersion.split('.')[0]) < Number(minimum[1])) {
    warnings.push(`It asks for Node.js ${nodeRange}; Patchbay runs Node.js ${nodeVersion}.`);
  }
  if (signature.status === 'unsigned') warnings.push('It is not signed: nobody vouches that it comes from its author.');
  return {
    title: manifest.display_name ?? manifest.name,
    description: manifest.description,
    facts: [
      { label: 'Id', value: bundle.id },
      { label: 'Version', value: manifest.version },
      { label: 'Author', value: manifest.author.name + (manifest.author.email ? ` <${manifest.author.email}>` : '') },
      {
        label: 'Signature',
        value:
          signature.status === 'unsigned'
            ? 'Not signed'
            : `${signature.status === 'self-signed' ? 'Self-signed' : 'Signed'} by ${signature.publisher ?? 'unknown'}${signature.issuer && signature.status === 'signed' ? ` (issued by ${signature.issuer})` : ''}`,
      },
      { label: 'Runs', value: describeRuns(manifest) },
      { label: 'Tools', value: list(manifest.tools, manifest.tools_generated) },
      { label: 'Prompts', value: list(manifest.prompts, manifest.prompts_generated) },
      {
        label: 'Compatibility',
        value: [
          compatibility?.platforms?.length ? compatibility.platforms.join(', ') : 'any platform',
          ...(nodeRange ? [`Node.js ${nodeRange}`] : []),
          ...(compatibility?.runtimes?.python ? [`Python ${compatibility.runtimes.python}`] : []),
        ].join('; '),
      },
      { label: 'Size', value: `${formatBytes(bundle.zip.unpackedBytes)} unpacked, ${bundle.zip.items.length} files` },
      ...(manifest.license ? [{ label: 'License', value: manifest.license }] : []),
    ],
    warnings,
  };
}
