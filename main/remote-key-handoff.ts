/**
 * The remote sync key between the page, the vault and the service process: the service gets the
 * kept key when it starts and every new key as soon as the page hands one over (before it is
 * written, so a key store that fails never stops sync), and forgets it when the page says null.
 */
import type { RemoteKeySaved } from '../contract/ipc';
import { remoteKeyProblem, type RemoteKeyVault } from './remote-key-vault';

export interface RemoteKeyHandoffOptions {
  vault: RemoteKeyVault;
  /** Posts the key (null: none) to the running service process. */
  sendToService(remoteKey: string | null): void;
  warn?(message: string): void;
}

export class RemoteKeyHandoff {
  /** Set by the page's first key: a kept key read after it must not overwrite it. */
  private replaced = false;
  /** Whether a key is kept, once known: asking the key store again may prompt the person (macOS Keychain). */
  private kept: boolean | null = null;

  constructor(private readonly options: RemoteKeyHandoffOptions) {}

  /** At the service's start: hands it the kept key, if there is one. */
  async start(): Promise<void> {
    const loaded = await this.options.vault.load();
    if (this.replaced) return;
    this.kept = loaded.key !== null;
    if (loaded.key !== null) this.options.sendToService(loaded.key);
    else if (loaded.problem) this.options.warn?.(`LabelDesk: no remote sync key at start: ${loaded.problem}`);
  }

  /** The page's new key (or null). Throws for a value that is not a key; the page checks first. */
  async save(key: unknown): Promise<RemoteKeySaved> {
    if (key !== null) {
      const problem = remoteKeyProblem(key);
      if (problem) throw new Error(problem);
    }
    const value = key as string | null;
    this.replaced = true;
    this.options.sendToService(value);
    try {
      await this.options.vault.save(value);
      this.kept = value !== null;
      return { saved: true };
    } catch (err) {
      // The previous file is untouched, but the service now uses another key: do not offer the old one as current.
      this.kept = false;
      return { saved: false, reason: (err as Error).message };
    }
  }

  async has(): Promise<boolean> {
    this.kept ??= await this.options.vault.has();
    return this.kept;
  }
}
