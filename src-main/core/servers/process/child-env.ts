/**
 * The environment a server process starts with.
 *
 * Servers are third-party code: they get a small allow-list of the host's environment (what a
 * program needs to find its home, temp dir, locale and executables) plus exactly the variables
 * the user configured for that server. Never all of `process.env`: Patchbay's own secrets (API
 * keys, tokens) must not leak into every server the user adds.
 */

/**
 * Variables passed through on every platform (exact names). The proxy variables are there because
 * `npx`/`uvx` servers must download their package through the same network the user has. Extra CA
 * bundles (NODE_EXTRA_CA_CERTS) are not: loading one slows every Node server's start; a server that
 * needs it gets it in its own environment.
 */
const COMMON_KEYS = [
  'PATH',
  'HOME',
  'USER',
  'LOGNAME',
  'SHELL',
  'LANG',
  'LANGUAGE',
  'TMPDIR',
  'TEMP',
  'TMP',
  'TZ',
  'HTTP_PROXY',
  'HTTPS_PROXY',
  'NO_PROXY',
  'http_proxy',
  'https_proxy',
  'no_proxy',
];

/** Variables passed through by prefix (locale and XDG base directories). */
const COMMON_PREFIXES = ['LC_', 'XDG_'];

/**
 * Windows basics: without SystemRoot many programs (Node included) fail to start; the rest is
 * where Windows programs find the user's profile, program files and executable extensions.
 */
const WINDOWS_KEYS = [
  'SystemRoot',
  'SystemDrive',
  'windir',
  'ComSpec',
  'PATHEXT',
  'APPDATA',
  'LOCALAPPDATA',
  'ProgramData',
  'ProgramFiles',
  'ProgramFiles(x86)',
  'ProgramW6432',
  'CommonProgramFiles',
  'USERPROFILE',
  'USERNAME',
  'USERDOMAIN',
  'HOMEDRIVE',
  'HOMEPATH',
  'PROCESSOR_ARCHITECTURE',
  'NUMBER_OF_PROCESSORS',
  'OS',
];

/** Environment variables as passed to a child process. */
export type EnvMap = Record<string, string>;

/**
 * Builds a server's environment: the allow-listed part of `parentEnv`, then `configuredEnv` on
 * top (the user's explicit settings win, including PATH).
 *
 * On Windows, names are matched case-insensitively (the OS treats `Path` and `PATH` alike) and the
 * parent's spelling is kept.
 */
export function buildChildEnv(
  parentEnv: NodeJS.ProcessEnv,
  configuredEnv: EnvMap = {},
  platform: NodeJS.Platform = process.platform,
): EnvMap {
  const windows = platform === 'win32';
  const norm = (key: string) => (windows ? key.toUpperCase() : key);
  const exact = new Set([...COMMON_KEYS, ...(windows ? WINDOWS_KEYS : [])].map(norm));
  const prefixes = COMMON_PREFIXES.map(norm);

  const env: EnvMap = {};
  for (const [key, value] of Object.entries(parentEnv)) {
    if (value === undefined) continue;
    const k = norm(key);
    if (exact.has(k) || prefixes.some((prefix) => k.startsWith(prefix))) env[key] = value;
  }
  for (const [key, value] of Object.entries(configuredEnv)) {
    // Drop a differently-cased parent duplicate so the configured value is the one the OS sees.
    if (windows) for (const existing of Object.keys(env)) if (norm(existing) === norm(key)) delete env[existing];
    env[key] = value;
  }
  return env;
}

/** Reads PATH from an env map, honouring Windows' case-insensitive `Path`. */
export function getPathVar(env: EnvMap | NodeJS.ProcessEnv, platform: NodeJS.Platform = process.platform): string | undefined {
  if (platform !== 'win32') return env.PATH;
  const key = Object.keys(env).find((k) => k.toUpperCase() === 'PATH');
  return key === undefined ? undefined : env[key];
}

/** Returns a copy of `env` with PATH replaced (keeping an existing Windows spelling). */
export function withPathVar(env: EnvMap, value: string, platform: NodeJS.Platform = process.platform): EnvMap {
  const out = { ...env };
  const key = platform === 'win32' ? (Object.keys(out).find((k) => k.toUpperCase() === 'PATH') ?? 'Path') : 'PATH';
  out[key] = value;
  return out;
}
