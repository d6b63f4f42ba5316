import { describe, expect, it } from 'vitest';
import { parseUpdateFeed } from './app';
import { SettingsPatchSchema } from './settings';

describe('the update feed setting', () => {
  it('reads the built-in feed, a GitHub repository (as owner/repo or its URL) and a generic https feed', () => {
    expect(parseUpdateFeed('')).toEqual({ provider: 'built-in' });
    expect(parseUpdateFeed(' acme/patchbay ')).toEqual({ provider: 'github', owner: 'acme', repo: 'patchbay' });
    expect(parseUpdateFeed('https://github.com/acme/patchbay.git')).toEqual({ provider: 'github', owner: 'acme', repo: 'patchbay' });
    expect(parseUpdateFeed('https://updates.example.com/patchbay/')).toEqual({
      provider: 'generic',
      url: 'https://updates.example.com/patchbay/',
    });
    expect(parseUpdateFeed('http://127.0.0.1:8080/feed')).toEqual({ provider: 'generic', url: 'http://127.0.0.1:8080/feed' });
  });

  it('refuses anything else, and the settings refuse to store it', () => {
    for (const bad of ['http://updates.example.com/feed', 'ftp://x.example/feed', 'acme', 'a/b/c', 'not a url']) {
      expect(parseUpdateFeed(bad)).toBeUndefined();
      expect(SettingsPatchSchema.safeParse({ updateFeed: bad }).success).toBe(false);
    }
    expect(SettingsPatchSchema.parse({ updatesEnabled: true, updateFeed: 'acme/patchbay' })).toEqual({
      updatesEnabled: true,
      updateFeed: 'acme/patchbay',
    });
  });
});
