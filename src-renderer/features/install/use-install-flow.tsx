import { Suspense, useCallback, useState } from 'react';
import type { HostApi, InstallPlan } from '@contract';
import { useAppStore } from '../../stores/use-app-store';
import { messageOf } from '../../ui/call-errors';
import { useMountedOnceOpen } from '../../ui/lazy-part';
import { installDialogPart } from './install-dialog-part';
import { uploadFile } from './upload';

/** What the install dialog needs from the host. */
export type InstallFlowApi = Pick<
  HostApi,
  'previewInstall' | 'install' | 'planInstall' | 'openBundle' | 'beginUpload' | 'uploadChunk' | 'cancelUpload' | 'pickFolder'
>;

/** True for a file the user means as a bundle. */
export const isBundleFile = (file: { name: string }) => file.name.toLowerCase().endsWith('.mcpb');

/**
 * One install in progress, whatever started it (Find servers, Install bundle, a dropped file, a pasted
 * or opened link): the plan on show, a bundle being uploaded and checked, and what went wrong.
 * `dialog` is the element to render. `onDone` follows a cancel or an install; `onInstalled` an install
 * only (Find servers stays open under a cancelled install, so the user is back at its results).
 */
export function useInstallFlow(api: InstallFlowApi, { onDone, onInstalled }: { onDone?: () => void; onInstalled?: () => void } = {}) {
  const electron = useAppStore((s) => s.info?.mode === 'electron');
  const [current, setCurrent] = useState<{ plan: InstallPlan; openRequestId?: string } | null>(null);
  const [busy, setBusy] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);

  const showPlan = useCallback((plan: InstallPlan, openRequestId?: string) => {
    setError(null);
    setCurrent({ plan, ...(openRequestId ? { openRequestId } : {}) });
  }, []);

  /** Uploads a bundle the user picked or dropped, has the host check it, and shows its install dialog. */
  const openBundleFile = useCallback(
    async (file: File) => {
      setError(null);
      if (!isBundleFile(file)) return setError(`${file.name} is not an MCP bundle (.mcpb file).`);
      setBusy(`Checking ${file.name}…`);
      try {
        const uploadId = await uploadFile(api, 'bundle', file, (fraction) =>
          setBusy(fraction < 1 ? `Reading ${file.name}… ${Math.round(fraction * 100)}%` : `Checking ${file.name}…`),
        );
        showPlan(await api.openBundle({ uploadId }));
      } catch (e) {
        setError(messageOf(e));
      } finally {
        setBusy(null);
      }
    },
    [api, showPlan],
  );

  /** Plans a link (pasted, or handed over by the operating system) and shows its confirmation. */
  const openLink = useCallback(
    async (link: string, openRequestId?: string) => {
      setError(null);
      try {
        showPlan(await api.planInstall({ source: { kind: 'link', link } }), openRequestId);
      } catch (e) {
        setError(messageOf(e));
      }
    },
    [api, showPlan],
  );

  const close = () => {
    setCurrent(null);
    onDone?.();
  };
  const installed = () => {
    close();
    onInstalled?.();
  };

  const mounted = useMountedOnceOpen(current !== null);
  const InstallDialog = installDialogPart.Component;
  const dialog = mounted && (
    <Suspense fallback={null}>
      <InstallDialog
        plan={current?.plan ?? null}
        openRequestId={current?.openRequestId}
        api={api}
        pickFolder={electron ? () => api.pickFolder().then((picked) => picked.path) : undefined}
        onCancel={close}
        onInstalled={installed}
      />
    </Suspense>
  );

  return { showPlan, openBundleFile, openLink, busy, error, clearError: () => setError(null), dialog, open: current !== null, current };
}
