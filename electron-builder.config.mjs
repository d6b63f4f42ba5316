/**
 * The one electron-builder configuration for every installer: AppImage and .deb on Linux, a universal
 * .dmg (and the .zip electron-updater needs) on macOS, NSIS on Windows. `npm run dist`
 * (scripts/dist.mjs) builds with it; scripts/dist/builder-config.test.ts validates it against
 * electron-builder's own schema and checks that it ships every file the main process loads.
 *
 * Everything it references lives in resources/ (icons generated from resources/icon.svg by
 * `npm run icons`, the Linux desktop entry and AppStream metadata, macOS entitlements, the .mcpb file
 * association).
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.dirname(fileURLToPath(import.meta.url));
const resource = (...parts) => path.join('resources', ...parts);
const pkg = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8'));

/**
 * The preset servers (src-main/core/server-config/presets.ts). They run as separate processes on the
 * app's own runtime (ELECTRON_RUN_AS_NODE), which cannot read inside app.asar, so they — and every
 * package they load — are unpacked beside it.
 */
export const PRESET_PACKAGES = [
  '@modelcontextprotocol/server-everything',
  '@modelcontextprotocol/server-filesystem',
  '@modelcontextprotocol/server-memory',
];

/**
 * The packages `names` need at run time, themselves included: their `dependencies` and
 * `optionalDependencies`, resolved the way Node does (nested node_modules first, then each parent's),
 * recursively. Optional ones that are not installed are skipped.
 */
export function dependencyClosure(names, projectRoot = root) {
  const found = new Set();
  const visit = (name, fromDir) => {
    for (let dir = fromDir; ; dir = path.dirname(dir)) {
      const candidate = path.join(dir, 'node_modules', name, 'package.json');
      if (fs.existsSync(candidate)) {
        const packageDir = path.dirname(candidate);
        if (found.has(packageDir)) return;
        found.add(packageDir);
        const manifest = JSON.parse(fs.readFileSync(candidate, 'utf8'));
        for (const dependency of Object.keys({ ...manifest.dependencies, ...manifest.optionalDependencies })) visit(dependency, packageDir);
        return;
      }
      if (dir === projectRoot || path.dirname(dir) === dir) return; // not installed (an optional dependency of another platform)
    }
  };
  for (const name of names) visit(name, projectRoot);
  return [...found].map((dir) => path.relative(projectRoot, dir).split(path.sep).join('/')).sort();
}

/**
 * asarUnpack patterns for packages (node_modules paths relative to the project), by package name
 * wherever it sits: electron-builder may nest the packaged node_modules differently than npm did
 * (another copy of the same name unpacked as well costs nothing).
 */
const unpackPatterns = (packageDirs) =>
  [...new Set(packageDirs.map((dir) => `**/node_modules/${dir.split('node_modules/').at(-1)}/**`))].sort();

/** The keys of resources/linux/patchbay.desktop that electron-builder does not compute itself. */
function desktopEntry() {
  const computed = new Set(['Name', 'Exec', 'Icon', 'Type', 'Terminal', 'MimeType', 'StartupWMClass', 'Categories', 'Comment']);
  const entry = {};
  for (const line of fs.readFileSync(path.join(root, resource('linux', 'patchbay.desktop')), 'utf8').split('\n')) {
    const match = /^([A-Za-z][A-Za-z0-9-]*)=(.*)$/.exec(line.trim());
    if (match && !computed.has(match[1])) entry[match[1]] = match[2];
  }
  return entry;
}

/**
 * Where a release's electron-updater feed is, if this build has one (written into app-update.yml):
 * PATCHBAY_PUBLISH_GITHUB=owner/repo or PATCHBAY_PUBLISH_URL=https://…; else none (users set a feed
 * in Settings). Nothing is uploaded: `npm run dist` never publishes.
 */
function publishConfig(env = process.env) {
  const github = /^([\w-]+)\/([\w.-]+)$/.exec(env.PATCHBAY_PUBLISH_GITHUB ?? '');
  if (github) return [{ provider: 'github', owner: github[1], repo: github[2] }];
  if (env.PATCHBAY_PUBLISH_URL) return [{ provider: 'generic', url: env.PATCHBAY_PUBLISH_URL }];
  return null;
}

/** @type {import('electron-builder').Configuration} */
const config = {
  appId: 'app.patchbay.Patchbay',
  productName: pkg.productName,
  copyright: 'Copyright © Patchbay authors',
  directories: { output: 'release', buildResources: 'resources' },
  // The app is the build output; production dependencies are added by electron-builder itself.
  files: [
    'out/**/*',
    '!out/.build-stamp',
    'package.json',
    // better-sqlite3's sources and build leftovers: only its binding and lib/ run.
    '!**/node_modules/better-sqlite3/{deps,src}/**',
    '!**/node_modules/better-sqlite3/build/Release/{obj,obj.target}/**',
    '!**/node_modules/better-sqlite3/build/Release/test_extension.node',
  ],
  asar: true,
  asarUnpack: unpackPatterns(dependencyClosure(['better-sqlite3', ...PRESET_PACKAGES])),
  extraResources: [{ from: resource('icons', 'png', '512x512.png'), to: 'icons/512x512.png' }],
  // node_modules keeps its Node build of better-sqlite3 (tests, web mode); the Electron build is put
  // into the packaged app by the after-pack step instead of rebuilding node_modules in place.
  npmRebuild: false,
  afterPack: './scripts/dist/after-pack.mjs',
  electronFuses: {
    // The preset servers and Node bundles run on the app's own binary in Node mode (ELECTRON_RUN_AS_NODE).
    runAsNode: true,
    enableNodeCliInspectArguments: false,
    // A NODE_OPTIONS in the user's environment must not load code into Patchbay. Off for the binary in
    // Node mode too: a preset's NODE_OPTIONS is ignored (they pass none; their entry is an argument).
    enableNodeOptionsEnvironmentVariable: false,
    // The packaged app's code cannot be altered unnoticed: electron-builder (26, through electronFuses)
    // embeds app.asar's header hash, checked at start (macOS and Windows; Electron has no check on
    // Linux). The after-pack step writes only to app.asar.unpacked, which the hash does not cover.
    enableEmbeddedAsarIntegrityValidation: true,
    onlyLoadAppFromAsar: true,
    enableCookieEncryption: true,
  },
  protocols: [{ name: 'Patchbay link', schemes: ['patchbay'] }],
  fileAssociations: JSON.parse(fs.readFileSync(path.join(root, resource('file-associations.json')), 'utf8')),
  publish: publishConfig(),
  linux: {
    target: ['AppImage', 'deb'],
    executableName: 'patchbay',
    icon: resource('icons', 'png'),
    category: 'Development',
    synopsis: 'A desktop host for the Model Context Protocol',
    maintainer: 'The Patchbay authors',
    syncDesktopName: true,
    desktop: { entry: desktopEntry() },
  },
  deb: {
    // electron-builder's own defaults (setting `depends` replaces them), plus bubblewrap: the sandbox
    // local servers run in (see src-main/core/sandbox/).
    depends: [
      'libgtk-3-0',
      'libnotify4',
      'libnss3',
      'libxss1',
      'libxtst6',
      'xdg-utils',
      'libatspi2.0-0',
      'libuuid1',
      'libsecret-1-0',
      'bubblewrap',
    ],
    // AppStream metadata for software centres (dpkg triggers refresh their caches).
    fpm: [
      `${path.join(root, resource('linux', 'app.patchbay.Patchbay.metainfo.xml'))}=/usr/share/metainfo/app.patchbay.Patchbay.metainfo.xml`,
    ],
  },
  mac: {
    target: [
      { target: 'dmg', arch: ['universal'] },
      { target: 'zip', arch: ['universal'] },
    ],
    icon: resource('icons', 'icon.icns'),
    category: 'public.app-category.developer-tools',
    hardenedRuntime: true,
    entitlements: resource('mac', 'entitlements.mac.plist'),
    entitlementsInherit: resource('mac', 'entitlements.mac.plist'),
    darkModeSupport: true,
  },
  win: {
    target: [{ target: 'nsis', arch: ['x64'] }],
    icon: resource('icons', 'icon.ico'),
  },
  nsis: {
    oneClick: false,
    perMachine: false,
    allowToChangeInstallationDirectory: true,
    createDesktopShortcut: true,
    createStartMenuShortcut: true,
    // The data directory (servers, conversations, secrets) belongs to the user, not the installation.
    deleteAppDataOnUninstall: false,
  },
};

export default config;
