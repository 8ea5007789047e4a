// The packaged app's entry (electron-builder.yml: extraMetadata.main, copied to
// dist/labeldesk-app.cjs). Started by the labeldesk command (build/bin/labeldesk) with
// --labeldesk-cli, the app runs its bundled command line instead of opening a window: the
// fuses forbid running the app's binary as plain Node, and the app's better-sqlite3 is built for
// Electron, so this process is the only Node that can run it. Otherwise the desktop app starts.
'use strict';

const MARKER = '--labeldesk-cli';

/** The command's own arguments, or null when the app was not started as the command. */
function cliArguments(argv) {
  const at = argv.indexOf(MARKER);
  if (at === -1) return null;
  const rest = argv.slice(at + 1);
  // The shim ends Chromium's switches with `--`, so an argument of the command is never one.
  return rest[0] === '--' ? rest.slice(1) : rest;
}

function runCommand(args) {
  const { app } = require('electron');
  // No dock icon on macOS for a command that opens no window.
  if (app.dock) app.dock.hide();
  let running = true;
  // Electron quits on SIGTERM/SIGINT by itself; `serve` finishes its requests first and exits.
  app.on('will-quit', (event) => {
    if (running) event.preventDefault();
  });
  const { main } = require('./labeldesk-cli.cjs');
  main(args).then(
    (code) => {
      running = false;
      app.exit(typeof code === 'number' ? code : 0);
    },
    (err) => {
      running = false;
      process.stderr.write(`labeldesk: ${err && err.stack ? err.stack : err}\n`);
      app.exit(1);
    },
  );
}

module.exports = { MARKER, cliArguments };

if (process.versions.electron) {
  const args = cliArguments(process.argv);
  if (args === null) require('./main/main.cjs');
  else runCommand(args);
}
