import type { AppSnapshot } from './app';
import type { ChatSnapshot } from './chat';
import type { ConsentSnapshot } from './consent';
import type { RulesView } from './rules';
import type { LogOverview } from './logs';
import type { ProvidersSnapshot } from './providers';
import type { QuestionsSnapshot } from './questions';
import type { ResourcesSnapshot } from './resources';
import type { RootsSnapshot } from './roots';
import type { SamplingSnapshot } from './sampling';
import type { SandboxSupport } from './sandbox';
import type { ServerView } from './servers';
import type { Settings } from './settings';
import type { TasksSnapshot } from './tasks';
import type { ToolsSnapshot } from './tools';
import type { ToolOffersSnapshot } from './tool-offers';

export type HostMode = 'electron' | 'web';

/** How the database came up at start. */
export interface DatabaseStatus {
  path: string;
  state: 'ok' | 'recovered';
  schemaVersion: number;
  journalMode: string;
  synchronous: 'FULL' | 'NORMAL' | 'OFF' | 'EXTRA';
  /** Set when a corrupt database was moved aside at start: where the old files went. */
  movedAsideTo?: string;
}

/** Everything the renderer shows about the host itself. */
export interface HostInfo {
  appName: string;
  version: string;
  mode: HostMode;
  dataDir: string;
  platform: string;
  runtime: string;
  database: DatabaseStatus;
  startedAt: string;
  /** The app's own log file (rotated beside it): spawns, crashes, restarts, decisions, main-process errors. */
  logFile: string;
  /** Whether local servers can run in a sandbox here (absent: unknown, treated as not supported). */
  sandbox?: SandboxSupport;
}

/** Full current state, sent first on (re)connect; events then keep it current. */
export interface HostSnapshot {
  info: HostInfo;
  settings: Settings;
  servers: ServerView[];
  roots: RootsSnapshot;
  chat: ChatSnapshot;
  tools: ToolsSnapshot;
  consent: ConsentSnapshot;
  /** Every question waiting for the user, oldest first. */
  questions: QuestionsSnapshot;
  logs: LogOverview;
  sampling: SamplingSnapshot;
  app: AppSnapshot;
  providers: ProvidersSnapshot;
  resources: ResourcesSnapshot;
  tasks: TasksSnapshot;
  toolOffers: ToolOffersSnapshot;
  /** Rules and the organisation's policy (the guard area). */
  rules: RulesView;
}
