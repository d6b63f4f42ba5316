import { useEffect, useState } from 'react';
import type { HostApi, ModelList } from '../../../src-preload/contract';

/**
 * The models to suggest in Settings: asked of the host once per key/base URL change (it asks the
 * Models API, or falls back to a built-in list). Empty until known; never throws.
 */
export function useModelList(api: HostApi, refreshKey: string): ModelList | null {
  const [list, setList] = useState<ModelList | null>(null);
  useEffect(() => {
    let live = true;
    api.listModels().then(
      (result) => live && setList(result),
      () => live && setList(null),
    );
    return () => {
      live = false;
    };
  }, [api, refreshKey]);
  return list;
}
