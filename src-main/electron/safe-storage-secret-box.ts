import { safeStorage } from 'electron';
import { KeyFileSecretBox } from '../core/secrets/key-file-secret-box';
import { foreignSchemeError, SCHEME_KEY_FILE, SCHEME_SAFE_STORAGE, type SecretBox } from '../core/secrets/secret-box';

/**
 * Secrets sealed by the OS keychain through Electron's safeStorage (the async API: the sync one is
 * deprecated in Electron 45). Where the keychain is unavailable (some Linux desktops), the key-file
 * box is used instead and the UI says so. Blobs from web mode's key file still open here.
 */
export async function createElectronSecretBox(dataDir: string): Promise<SecretBox> {
  const keyFile = new KeyFileSecretBox(dataDir);
  const available = await safeStorage.isAsyncEncryptionAvailable().catch(() => false);
  if (!available) return keyFile;
  const box: SecretBox = {
    scheme: SCHEME_SAFE_STORAGE,
    description: 'the system keychain',
    async seal(plain) {
      return Buffer.concat([Buffer.from([SCHEME_SAFE_STORAGE]), await safeStorage.encryptStringAsync(plain)]);
    },
    async open(sealed) {
      if (sealed[0] === SCHEME_KEY_FILE) return keyFile.open(sealed);
      if (sealed[0] !== SCHEME_SAFE_STORAGE) throw foreignSchemeError(sealed, box);
      const { result } = await safeStorage.decryptStringAsync(sealed.subarray(1));
      return result;
    },
  };
  return box;
}
