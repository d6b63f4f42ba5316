import type { ConsentSettings } from '@contract';
import type { PolicyRepository } from './policy-repository';

/** The default: an unanswered request is denied after 10 minutes. */
export const DEFAULT_CONSENT_SETTINGS: ConsentSettings = { timeoutMinutes: 10 };

/** Consent preferences, persisted; read at each request so a change applies to the next one. */
export class ConsentPrefs {
  private current: ConsentSettings;

  constructor(private readonly repo: PolicyRepository) {
    this.current = {
      ...DEFAULT_CONSENT_SETTINGS,
      timeoutMinutes: repo.readPref('timeoutMinutes', DEFAULT_CONSENT_SETTINGS.timeoutMinutes),
    };
  }

  read(): ConsentSettings {
    return { ...this.current };
  }

  write(settings: ConsentSettings): ConsentSettings {
    this.repo.writePref('timeoutMinutes', settings.timeoutMinutes);
    this.current = { ...settings };
    return this.read();
  }

  timeoutMs(): number {
    return this.current.timeoutMinutes * 60_000;
  }
}
