/**
 * Detects local model servers (the presets marked `local`: Ollama, LM Studio) by asking their
 * default port's models endpoint, from the host. Only the presets' own loopback URLs are probed, so
 * this can reach nothing a user typed; each probe gives up quickly (a closed port fails at once).
 */
import { PROVIDER_PRESETS, type PresetDetection, type ProviderPreset } from '@contract';

/** Probes every local preset at once; never throws. */
export async function detectLocalPresets(
  presets: readonly ProviderPreset[] = PROVIDER_PRESETS,
  timeoutMs = 1_500,
): Promise<PresetDetection[]> {
  return Promise.all(presets.filter((p) => p.local).map((preset) => probe(preset, timeoutMs)));
}

async function probe(preset: ProviderPreset, timeoutMs: number): Promise<PresetDetection> {
  try {
    const response = await fetch(`${preset.baseUrl.replace(/\/+$/, '')}/models`, {
      signal: AbortSignal.timeout(timeoutMs),
      redirect: 'error',
      headers: { accept: 'application/json' },
    });
    if (!response.ok) return { presetId: preset.id, running: false };
    const body = (await response.json()) as { data?: unknown };
    return { presetId: preset.id, running: true, ...(Array.isArray(body.data) ? { models: body.data.length } : {}) };
  } catch {
    return { presetId: preset.id, running: false };
  }
}
