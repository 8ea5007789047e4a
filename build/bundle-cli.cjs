// electron-builder's beforePack hook (electron-builder.yml), also runnable by itself: bundles the
// command line into dist/labeldesk-cli.cjs and puts the packaged app's entry beside it
// (dist/labeldesk-app.cjs), the way scripts/build-electron.js bundles the main process. The
// bundle sits one folder below the app's root, as cli/main.ts does in the clone, so the paths it
// derives from its own location (the built UI at ../dist/renderer) hold in the package too.
'use strict';

const { copyFileSync, mkdirSync } = require('node:fs');
const path = require('node:path');

const root = path.resolve(__dirname, '..');
const CLI_BUNDLE = 'dist/labeldesk-cli.cjs';
const APP_ENTRY = 'dist/labeldesk-app.cjs';

async function bundleCli() {
  const { build } = await import('esbuild');
  mkdirSync(path.join(root, 'dist'), { recursive: true });
  await build({
    // The import's parse workers load the file they are defined in and call its runWorker: the
    // bundle exports it beside main.
    stdin: {
      contents: "export { main } from './cli/main.ts';\nexport { runWorker } from './service/bundle-import/parse-worker.ts';\n",
      resolveDir: root,
      sourcefile: 'labeldesk-cli-entry.ts',
      loader: 'ts',
    },
    outfile: path.join(root, CLI_BUNDLE),
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    // Native (rebuilt for Electron), or a runtime dependency electron-builder packs as it is.
    external: ['electron', 'better-sqlite3', 'playwright-core'],
    logLevel: 'warning',
    absWorkingDir: root,
    define: { 'import.meta.url': '__labeldesk_import_meta_url' },
    banner: { js: "const __labeldesk_import_meta_url = require('node:url').pathToFileURL(__filename).href;" },
  });
  copyFileSync(path.join(__dirname, 'app-entry.cjs'), path.join(root, APP_ENTRY));
  return [CLI_BUNDLE, APP_ENTRY];
}

module.exports = { bundleCli, CLI_BUNDLE, APP_ENTRY };
module.exports.default = async function beforePack() {
  await bundleCli();
};

if (require.main === module) {
  bundleCli().then(
    (files) => console.log(`bundle-cli: ${files.join(', ')}`),
    (err) => {
      console.error(err);
      process.exit(1);
    },
  );
}
