/**
 * The remote sync key between the page, the vault and the service process (secret-vault.ts's
 * SecretHandoff): the service gets the kept key when it starts and every new key as soon as the
 * page hands one over, and forgets it when the page says null.
 */
import { SecretHandoff } from './secret-vault';
import type { RemoteKeyVault } from './remote-key-vault';

export interface RemoteKeyHandoffOptions {
  vault: RemoteKeyVault;
  /** Posts the key (null: none) to the running service process. */
  sendToService(remoteKey: string | null): void;
  warn?(message: string): void;
}

export class RemoteKeyHandoff extends SecretHandoff {
  constructor(options: RemoteKeyHandoffOptions) {
    super(options);
  }
}
