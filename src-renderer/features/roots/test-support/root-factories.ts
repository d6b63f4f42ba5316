/** Test helpers for the roots feature: folders as the host sends them. */
import type { RootView } from '@contract';

/** A folder as the host would send it. */
export function rootView(overrides: Partial<RootView> = {}): RootView {
  const path = overrides.path ?? `/home/ana/${overrides.name ?? 'Projects'}`;
  return {
    id: 'root-1',
    name: 'Projects',
    path,
    uri: `file://${path}`,
    available: true,
    readOnly: false,
    createdAt: '2026-01-01T00:00:00.000Z',
    ...overrides,
  };
}
