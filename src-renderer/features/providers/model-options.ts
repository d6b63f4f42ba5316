/**
 * Provider › model choices for a Select: grouped by provider (a headed group each), each option
 * named by its model, its value carrying both ids (model ids may contain any character, so they are
 * JSON-encoded together rather than joined with a separator).
 */
import type { ProviderView } from '@contract';

export interface ModelRef {
  providerId: string;
  model: string;
}

/** One model as a choice: which provider, its id, what to call it. */
export interface ModelOptionSource {
  providerId: string;
  providerName: string;
  id: string;
  displayName: string;
}

export interface ModelOptionGroup {
  providerId: string;
  label: string;
  options: { value: string; label: string }[];
}

export function modelValue(ref: ModelRef): string {
  return JSON.stringify([ref.providerId, ref.model]);
}

export function parseModelValue(value: string): ModelRef | undefined {
  try {
    const parsed: unknown = JSON.parse(value);
    if (Array.isArray(parsed) && typeof parsed[0] === 'string' && typeof parsed[1] === 'string')
      return { providerId: parsed[0], model: parsed[1] };
  } catch {
    // not one of ours
  }
  return undefined;
}

/** Every provider's listed models as choices. */
export function providerModels(providers: readonly ProviderView[]): ModelOptionSource[] {
  return providers.flatMap((p) => p.models.map((m) => ({ providerId: p.id, providerName: p.name, id: m.id, displayName: m.displayName })));
}

/**
 * Groups choices by provider, in the order given. `ensure` adds models that must be choosable even if
 * no list names them (the current and the default one, perhaps typed by hand), under their provider.
 */
export function groupModels(
  sources: readonly ModelOptionSource[],
  ensure: readonly (ModelRef & { providerName?: string | undefined; label?: string })[] = [],
): ModelOptionGroup[] {
  const groups = new Map<string, ModelOptionGroup>();
  const add = (providerId: string, providerName: string, id: string, label: string) => {
    let group = groups.get(providerId);
    if (!group) {
      group = { providerId, label: providerName, options: [] };
      groups.set(providerId, group);
    }
    const value = modelValue({ providerId, model: id });
    if (!group.options.some((o) => o.value === value)) group.options.push({ value, label });
  };
  for (const s of sources) add(s.providerId, s.providerName, s.id, s.displayName || s.id);
  for (const e of ensure) {
    const known = sources.find((s) => s.providerId === e.providerId);
    add(e.providerId, known?.providerName ?? e.providerName ?? e.providerId, e.model, e.label ?? e.model);
  }
  return [...groups.values()];
}
