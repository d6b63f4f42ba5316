import type { PromptResultView, PromptView, ServerView } from '@contract';
import { useAppStore } from '../../../stores/use-app-store';
import { Modal } from '../../../ui/Modal';
import { PromptForm } from '../../prompts/PromptForm';

export interface PromptDialogProps {
  prompt: PromptView | null;
  servers: readonly ServerView[];
  onClose(): void;
  /** The fetched prompt, to show above the message box until sent. */
  onChosen(result: PromptResultView): void;
}

/** A prompt chosen with `/`: its arguments (with suggestions), fetched for the chat on `Use prompt`. */
export function PromptDialog({ prompt, servers, onClose, onChosen }: PromptDialogProps) {
  const api = useAppStore((s) => s.api);
  const completions = servers.find((s) => s.config.id === prompt?.serverId)?.runtime.capabilities?.includes('completions') ?? false;
  return (
    <Modal
      open={prompt !== null}
      onOpenChange={(open) => !open && onClose()}
      title={prompt ? `Prompt ${prompt.serverName}: ${prompt.name}` : 'Prompt'}
      description={prompt?.description}
      className="modal-wide"
    >
      {prompt && (
        <PromptForm
          prompt={prompt}
          completions={completions}
          submitLabel="Use prompt"
          onGet={async (args) => {
            const result = await api.getPrompt({ serverId: prompt.serverId, name: prompt.name, arguments: args, purpose: 'chat' });
            onChosen(result);
            onClose();
            return result;
          }}
        />
      )}
    </Modal>
  );
}
