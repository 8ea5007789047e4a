/**
 * The Electron main process. Thin on purpose: the decisions live in window-policy.ts,
 * ipc-guard.ts and menu.ts (tested in Node); this file wires them into Electron.
 *
 * Start: single-instance lock → fork the service (utility process, SQLite off the UI thread) →
 * wait for its URL and session key → a sandboxed window on the service's own origin. The
 * renderer asks for its connection over one IPC channel that answers only the service's page;
 * the remote sync key and the SMTP relay's password travel from the page to the service the
 * same guarded way and are kept between starts by secret-vault.ts (safeStorage, never plain
 * text). The key that signs the audit trail's checkpoints is kept the same way
 * (audit-key-vault.ts) and handed to the service at start.
 * Quit: the service is told to shut down and given up to 5 s to finish requests and close the
 * database.
 */
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import {
  app,
  BrowserWindow,
  clipboard,
  dialog,
  ipcMain,
  Menu,
  Notification,
  safeStorage,
  session,
  shell,
  utilityProcess,
  type UtilityProcess,
  type WebContents,
} from 'electron';
import {
  GET_CONNECTION_CHANNEL,
  HAS_REMOTE_KEY_CHANNEL,
  HAS_SMTP_PASSWORD_CHANNEL,
  SAVE_PDF_CHANNEL,
  SAVE_REMOTE_KEY_CHANNEL,
  SAVE_SMTP_PASSWORD_CHANNEL,
  type PdfSaved,
} from '../contract/ipc';
import { PDF_OPTIONS, pdfFileName, printViewUrl, reportIdFromIpc, WAIT_FOR_PRINT_READY } from './print-pdf';
import { VERSION } from '../contract/version';
import { connectionFor, requireTrustedSender, type ConnectionState } from './ipc-guard';
import { RemoteKeyHandoff } from './remote-key-handoff';
import { KEY_FILE_NAME, RemoteKeyVault } from './remote-key-vault';
import { SecretHandoff } from './secret-vault';
import { SMTP_PASSWORD_FILE_NAME, smtpPasswordVault } from './smtp-password-vault';
import { AUDIT_KEY_FILE_NAME, auditKeyAtStart, auditKeyVault } from './audit-key-vault';
import { APP_NAME, menuTemplate } from './menu';
import { AlarmNotifier } from './alarm-notifier';
import {
  isServiceMessage,
  serviceArgv,
  type AuditKeyMessage,
  type ReadyMessage,
  type ShutdownMessage,
  type SmtpPasswordMessage,
  type SyncKeyMessage,
} from '../host/service-protocol';
import { defaultDatabaseFile } from '../host/data-folder';
import {
  decideWindowOpen,
  isNavigationAllowed,
  isPermissionAllowed,
  secureWebPreferences,
  withContentSecurityPolicy,
} from './window-policy';

const SHUTDOWN_TIMEOUT_MS = 5_000;
const STARTUP_TIMEOUT_MS = 120_000; // a first start may create demo data

let mainWindow: BrowserWindow | null = null;
let serviceProcess: UtilityProcess | null = null;
let connection: ConnectionState | null = null;
let quitting = false;
let shutdownDone = false;

/** The app's data folder: the same in development and packaged (app names differ in case). */
function useDataFolder(): void {
  const override = process.env.LABELDESK_DATA_DIR;
  app.setPath('userData', override ? path.resolve(override) : path.join(app.getPath('appData'), APP_NAME));
}

function appFile(...parts: string[]): string {
  return path.join(app.getAppPath(), ...parts);
}

function startServiceProcess(): Promise<ReadyMessage> {
  const child = utilityProcess.fork(
    appFile('dist', 'main', 'service-process.cjs'),
    serviceArgv({
      // The same database the command line uses, so imports show in the app.
      dbFile: defaultDatabaseFile(),
      strictPort: false,
      staticDir: appFile('dist', 'renderer'),
      demoIfEmpty: process.env.LABELDESK_DEMO !== '0',
      version: VERSION,
      // The key that signs the audit trail's checkpoints comes from the key store (audit-key-vault.ts).
      auditKeyFromParent: true,
    }),
    { serviceName: 'LabelDesk Service', stdio: 'inherit' },
  );
  serviceProcess = child;
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('the local service did not start in time')), STARTUP_TIMEOUT_MS);
    child.on('message', (message: unknown) => {
      if (!isServiceMessage(message)) return;
      clearTimeout(timer);
      if (message.type === 'ready') resolve(message);
      else reject(new Error(message.message));
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      serviceProcess = null;
      reject(new Error(`the local service stopped (exit code ${code})`));
      if (!quitting && connection) {
        dialog.showErrorBox(APP_NAME, `The local LabelDesk service stopped unexpectedly (exit code ${code}). LabelDesk will close.`);
        app.quit();
      }
    });
  });
}

/** Tells the service to shut down and waits for it to exit, at most SHUTDOWN_TIMEOUT_MS. */
function stopServiceProcess(): Promise<void> {
  const child = serviceProcess;
  if (!child) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(() => {
      child.kill();
      resolve();
    }, SHUTDOWN_TIMEOUT_MS);
    child.once('exit', () => {
      clearTimeout(timer);
      resolve();
    });
    const message: ShutdownMessage = { type: 'shutdown' };
    child.postMessage(message);
  });
}

function hardenContents(contents: WebContents, serviceOrigin: string): void {
  contents.on('will-navigate', (event) => {
    if (!isNavigationAllowed(event.url, serviceOrigin)) event.preventDefault();
  });
  contents.on('will-redirect', (event) => {
    if (!isNavigationAllowed(event.url, serviceOrigin)) event.preventDefault();
  });
  contents.on('will-attach-webview', (event) => event.preventDefault());
  contents.setWindowOpenHandler(({ url }) => {
    const decision = decideWindowOpen(url);
    if (decision.openExternal) void shell.openExternal(decision.openExternal);
    return { action: decision.action };
  });
}

function hardenSession(serviceOrigin: string): void {
  const ses = session.defaultSession;
  ses.setPermissionRequestHandler((contents, permission, callback, details) => {
    callback(isPermissionAllowed(permission, details.requestingUrl ?? contents?.getURL(), serviceOrigin));
  });
  ses.setPermissionCheckHandler((_contents, permission, requestingOrigin) =>
    isPermissionAllowed(permission, requestingOrigin, serviceOrigin),
  );
  ses.webRequest.onHeadersReceived({ urls: [`${serviceOrigin}/*`] }, (details, callback) => {
    const responseHeaders = withContentSecurityPolicy(details.url, details.responseHeaders, serviceOrigin);
    callback(responseHeaders ? { responseHeaders } : {});
  });
}

function createWindow(serviceUrl: string): void {
  const window = new BrowserWindow({
    width: 1400,
    height: 900,
    minWidth: 900,
    minHeight: 600,
    title: APP_NAME,
    show: false,
    webPreferences: secureWebPreferences(appFile('dist', 'preload', 'preload.cjs')),
  });
  window.once('ready-to-show', () => window.show());
  window.on('closed', () => {
    if (mainWindow === window) mainWindow = null;
  });
  mainWindow = window;
  void window.loadURL(`${serviceUrl}/`);
}

/**
 * The report's print view in a hidden window of the same sandbox (it gets its key through the
 * bridge like the main window), printed to A4 once it says it is ready, then saved where the
 * person chooses.
 */
async function savePdf(serviceOrigin: string, reportId: string, parent: BrowserWindow | null): Promise<PdfSaved> {
  const printer = new BrowserWindow({ show: false, width: 1000, height: 1400, webPreferences: secureWebPreferences(appFile('dist', 'preload', 'preload.cjs')) });
  try {
    await printer.loadURL(printViewUrl(serviceOrigin, reportId));
    const reference = String(await printer.webContents.executeJavaScript(WAIT_FOR_PRINT_READY, true));
    const pdf = await printer.webContents.printToPDF(PDF_OPTIONS);
    const options = { defaultPath: path.join(app.getPath('documents'), pdfFileName(reference, reportId)), filters: [{ name: 'PDF', extensions: ['pdf'] }] };
    const choice = parent ? await dialog.showSaveDialog(parent, options) : await dialog.showSaveDialog(options);
    if (choice.canceled || !choice.filePath) return { saved: false, reason: null };
    await writeFile(choice.filePath, pdf);
    return { saved: true, path: choice.filePath };
  } catch (err) {
    return { saved: false, reason: (err as Error).message };
  } finally {
    printer.destroy();
  }
}

function focusWindow(): void {
  if (!mainWindow) {
    if (connection) createWindow(connection.baseUrl);
    return;
  }
  if (mainWindow.isMinimized()) mainWindow.restore();
  mainWindow.show();
  mainWindow.focus();
}

function installMenu(): void {
  const template = menuTemplate(process.platform, {
    about: () => {
      void dialog.showMessageBox({
        type: 'info',
        title: `About ${APP_NAME}`,
        message: `${APP_NAME} ${VERSION}`,
        detail:
          'Desktop companion for cold-chain label reports.\n' +
          `Local API: ${connection?.baseUrl ?? '(not running)'}\n` +
          `Electron ${process.versions.electron} · Chromium ${process.versions.chrome} · Node ${process.versions.node}`,
        buttons: ['OK'],
      });
    },
    copyBaseUrl: () => {
      if (connection) clipboard.writeText(connection.baseUrl);
    },
  });
  Menu.setApplicationMenu(Menu.buildFromTemplate(template));
}

async function onReady(): Promise<void> {
  installMenu();
  let ready: ReadyMessage;
  try {
    ready = await startServiceProcess();
  } catch (err) {
    dialog.showErrorBox(APP_NAME, `The local LabelDesk service could not start:\n${(err as Error).message}`);
    app.quit();
    return;
  }
  const serviceOrigin = new URL(ready.url).origin;
  connection = { baseUrl: serviceOrigin, sessionKey: ready.sessionKey, message: ready.message };
  if (ready.sessionKey === null && ready.message) console.warn(`LabelDesk: ${ready.message}`);

  hardenSession(serviceOrigin);
  app.on('web-contents-created', (_event, contents) => hardenContents(contents, serviceOrigin));
  ipcMain.handle(GET_CONNECTION_CHANNEL, (event) => {
    if (!connection) throw new Error('the local service is not running');
    return connectionFor(event.senderFrame, connection);
  });
  const remoteKey = new RemoteKeyHandoff({
    vault: new RemoteKeyVault(path.join(app.getPath('userData'), KEY_FILE_NAME), safeStorage),
    sendToService: (key) => {
      const message: SyncKeyMessage = { type: 'sync-key', remoteKey: key };
      serviceProcess?.postMessage(message);
    },
    warn: (message) => console.warn(message),
  });
  ipcMain.handle(SAVE_REMOTE_KEY_CHANNEL, (event, key: unknown) => {
    requireTrustedSender(event.senderFrame, serviceOrigin, SAVE_REMOTE_KEY_CHANNEL);
    return remoteKey.save(key);
  });
  ipcMain.handle(HAS_REMOTE_KEY_CHANNEL, (event) => {
    requireTrustedSender(event.senderFrame, serviceOrigin, HAS_REMOTE_KEY_CHANNEL);
    return remoteKey.has();
  });
  const smtpPassword = new SecretHandoff({
    vault: smtpPasswordVault(path.join(app.getPath('userData'), SMTP_PASSWORD_FILE_NAME), safeStorage),
    sendToService: (password) => {
      const message: SmtpPasswordMessage = { type: 'smtp-password', password };
      serviceProcess?.postMessage(message);
    },
    warn: (message) => console.warn(message),
  });
  ipcMain.handle(SAVE_SMTP_PASSWORD_CHANNEL, (event, password: unknown) => {
    requireTrustedSender(event.senderFrame, serviceOrigin, SAVE_SMTP_PASSWORD_CHANNEL);
    return smtpPassword.save(password);
  });
  ipcMain.handle(HAS_SMTP_PASSWORD_CHANNEL, (event) => {
    requireTrustedSender(event.senderFrame, serviceOrigin, HAS_SMTP_PASSWORD_CHANNEL);
    return smtpPassword.has();
  });
  ipcMain.handle(SAVE_PDF_CHANNEL, (event, reportId: unknown) => {
    requireTrustedSender(event.senderFrame, serviceOrigin, SAVE_PDF_CHANNEL);
    return savePdf(serviceOrigin, reportIdFromIpc(reportId), BrowserWindow.fromWebContents(event.sender));
  });
  createWindow(serviceOrigin);
  if (ready.sessionKey !== null && Notification.isSupported()) {
    new AlarmNotifier({
      baseUrl: serviceOrigin,
      sessionKey: ready.sessionKey,
      createNotification: (options) => new Notification(options),
      openReport: (reportId) => {
        focusWindow();
        void mainWindow?.loadURL(`${serviceOrigin}/?report=${encodeURIComponent(reportId)}`);
      },
      setBadge: (count) => app.setBadgeCount(count),
      warn: (message) => console.warn(message),
    }).start();
  }
  // Reading the key store may wait on the OS (a Keychain prompt): the window does not.
  void remoteKey.start();
  void smtpPassword.start();
  void auditKeyAtStart(auditKeyVault(path.join(app.getPath('userData'), AUDIT_KEY_FILE_NAME), safeStorage), (message) => console.warn(message)).then(
    (privateKey) => {
      if (privateKey === undefined) return;
      const message: AuditKeyMessage = { type: 'audit-key', privateKey };
      serviceProcess?.postMessage(message);
    },
    (err: unknown) => console.warn(`LabelDesk: the audit signing key could not be kept: ${(err as Error).message}`),
  );
}

// Before the lock: the lock lives in the userData folder.
useDataFolder();
if (!app.requestSingleInstanceLock()) {
  app.quit();
} else {
  app.setName(APP_NAME);
  app.on('second-instance', () => focusWindow());
  app.on('activate', () => focusWindow());
  app.on('window-all-closed', () => {
    if (process.platform !== 'darwin') app.quit();
  });
  app.on('before-quit', (event) => {
    quitting = true;
    if (shutdownDone) return;
    event.preventDefault();
    void stopServiceProcess().finally(() => {
      shutdownDone = true;
      app.quit();
    });
  });
  app.whenReady().then(onReady, (err: unknown) => {
    console.error(err);
    app.exit(1);
  });
}
