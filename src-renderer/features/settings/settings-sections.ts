/**
 * The names of the Settings sections, apart from the page: the command palette lists them, and must
 * not pull the whole Settings page into the first paint with them.
 */
import type { SettingsSection } from '../../routing/routes';

/** Each section's name, as its heading says (the links at the top and the palette use them). */
export const SETTINGS_SECTION_LABELS: Record<SettingsSection, string> = {
  preferences: 'Preferences',
  providers: 'Providers',
  updates: 'Updates',
  backup: 'Export and backup',
  consent: 'Tool consent',
  rules: 'Rules',
  toolsets: 'Tool sets',
  skills: 'Skills',
  requests: 'Server requests',
  content: 'Resource and prompt use',
  telemetry: 'Telemetry',
  about: 'About this host',
};
