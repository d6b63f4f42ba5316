/**
 * The guard area: the one place that judges a tool call before it leaves — the organisation's policy
 * (which servers may be added and started, its rules), the user's rules, and the three-way risk of
 * the conversation the call comes from. The tool router asks it (`guard.judge`) before standing
 * decisions; what it decided is named in the consent dialog and the audit trail. What servers send
 * back is scanned here too (`scanner/`): results before the model reads them (`review`, where a flag
 * counts as untrusted content for the three-way risk), tools' descriptions as they are listed.
 */
import type Database from 'better-sqlite3';
import type { Tool } from '@modelcontextprotocol/client';
import { HostCallError, type FlaggedContentMode, type RulesView } from '@contract';
import type { Clock } from '../clock';
import type { HostEventBus } from '../events';
import type { QuestionQueue } from '../questions/question-queue';
import type { StoredServer } from '../server-config/server-config-repository';
import type { CallGuard, GuardCall, Judgement } from './call-guard';
import { Exposure } from './exposure';
import type { OrganisationArea } from './policy/organisation-area';
import { createRuleHandlers } from './guard-handlers';
import { argValues, isInside, normalisePath } from './rules/arg-tests';
import { parseRules } from './rules/rule-parser';
import { RuleSet } from './rules/rule-set';
import type { Rule } from './rules/rule-types';
import { ruleView } from './rules/rule-view';
import { ruleWarnings } from './rules/rule-warnings';
import { RulesStore } from './rules/rules-store';
import { ContentReview } from './scanner/content-review';
import { ContentScanner } from './scanner/content-scanner';
import { DescriptionFlags } from './scanner/description-flags';

export interface GuardAreaDeps {
  db: Database.Database;
  events: HostEventBus;
  clock: Clock;
  servers: { get(id: string): StoredServer | undefined; list(): StoredServer[] };
  /** The tools of a ready server; undefined when it is not running. */
  tools(serverId: string): readonly Tool[] | undefined;
  /** The folders shared with a server now (absolute paths). */
  sharedFolders(serverId: string): Promise<string[]>;
  /** The organisation's policy (made before the fleet); its rules come before the user's. */
  organisation: Pick<OrganisationArea, 'policy' | 'whenChanged'>;
  /** The one question queue: a flagged result is asked about there (Settings › Flagged content: ask). */
  questions: QuestionQueue;
  /** Settings › Flagged content, in force now. */
  flaggedContent(): FlaggedContentMode;
}

export function createGuardArea(deps: GuardAreaDeps) {
  const store = new RulesStore(deps.db);
  const exposure = new Exposure();
  // What servers send back is scanned (local rules: see scanner/) before the model reads it; Settings ›
  // Flagged content decides what a flag does, and a flagged result counts as untrusted content for the
  // three-way risk.
  const scanner = new ContentScanner();
  const review = new ContentReview({
    ...{ scanner, questions: deps.questions, now: deps.clock.now, mode: deps.flaggedContent },
    onFlagged: (conversationId, why) => exposure.note(conversationId, 'untrusted', why),
  });
  let userRules: Rule[] = parseRules(store.read()).rules;
  let ruleSet = new RuleSet(userRules);
  const organisation = deps.organisation.policy;
  const rebuild = () => (ruleSet = new RuleSet([...(organisation.current?.rules ?? []), ...userRules]));
  rebuild();
  deps.organisation.whenChanged(() => {
    rebuild();
    deps.events.emit('rulesChanged', view());
  });

  const known = () => deps.servers.list().map((server) => ({ name: server.name, tools: deps.tools(server.id) }));
  const describe = (matcher: object) => JSON.stringify(matcher);
  const view = (): RulesView => {
    const policy = organisation.current;
    return {
      text: store.read(),
      rules: userRules.map(ruleView),
      warnings: ruleWarnings(userRules, known()),
      ...(policy
        ? {
            organisation: {
              file: policy.file,
              rules: policy.rules.map(ruleView),
              deniedServers: policy.deniedServers.map(describe),
              ...(policy.allowedServers ? { allowedServers: policy.allowedServers.map(describe) } : {}),
              sandboxRequired: policy.sandboxRequired,
            },
          }
        : {}),
      ...(organisation.problem ? { organisationProblem: organisation.problem } : {}),
    };
  };

  /**
   * The deciding rule of a call under `rules`, with the shared folders looked up only when a rule needs
   * them: a promise then, else the rule at once (every tool call is judged: no turn waited for in vain).
   */
  const decide = (rules: RuleSet, serverId: string, serverName: string, tool: string, args: Record<string, unknown>) =>
    rules.needsFolders(serverName, tool)
      ? deps.sharedFolders(serverId).then((folders) => rules.decide({ serverName, tool, args }, folders))
      : rules.decide({ serverName, tool, args }, []);

  /** Whether a call of this tool can send data out: it says it reaches the open world, or its server can reach the network. */
  const canSendOut = (call: GuardCall) => {
    if ((call.tool.annotations as { openWorldHint?: boolean } | undefined)?.openWorldHint === true) return true;
    const server = deps.servers.get(call.serverId);
    if (!server) return false;
    return server.transport === 'http' || !server.sandbox.enabled || server.sandbox.network !== 'blocked';
  };

  /** Notes private data when one of the call's path-like arguments is inside a folder shared with its server. */
  const noteSharedFile = async (call: GuardCall, conversationId: string, values: unknown[]) => {
    const folders = await deps.sharedFolders(call.serverId);
    const inside = values.some((value) => {
      if (typeof value !== 'string') return false;
      const target = normalisePath(value, undefined);
      return target !== undefined && folders.some((folder) => isInside(target, folder));
    });
    if (inside) exposure.note(conversationId, 'private', `a file from a folder shared with ${call.serverName}`);
  };

  const guard: CallGuard = {
    async judge(call): Promise<Judgement> {
      const decided = decide(ruleSet, call.serverId, call.serverName, call.tool.name, call.args);
      const rule = decided instanceof Promise ? await decided : decided;
      const risk = call.origin === 'user' || !canSendOut(call) ? undefined : exposure.riskFor(call.conversationId, call.tool.name);
      if (rule?.decision === 'deny') {
        const named = ruleView(rule);
        const by = rule.source === 'organisation' ? "your organisation's rule" : `the rule on line ${rule.line} of Settings › Rules`;
        return {
          kind: 'deny',
          rule: named,
          message: `Patchbay did not run ${call.tool.name} on ${call.serverName}: ${by} "${named.words}" denies this call. Do not retry it with the same arguments.`,
        };
      }
      if (rule) return { kind: rule.decision, rule: ruleView(rule), ...(risk ? { risk } : {}) };
      return risk ? { kind: 'ask', risk } : { kind: 'none' };
    },
    afterCall(call, succeeded) {
      if (!succeeded || call.conversationId === undefined) return undefined;
      const conversationId = call.conversationId;
      if ((call.tool.annotations as { openWorldHint?: boolean } | undefined)?.openWorldHint === true)
        exposure.note(
          conversationId,
          'untrusted',
          `the result of ${call.tool.name} (${call.serverName}), a tool that reaches the open world`,
        );
      const values = Object.keys(call.args).flatMap((name) => argValues(call.args, name) ?? []);
      if (
        !values.some((value) => typeof value === 'string' && (value.startsWith('/') || value.startsWith('~') || value.startsWith('file:')))
      )
        return undefined;
      // Before the result goes back, so the model's next call already meets the risk.
      return noteSharedFile(call, conversationId, values);
    },
  };

  return {
    name: 'guard' as const,
    guard,
    /** Results, attached resources and chosen prompts, scanned before the model reads them. */
    review,
    /** What the scanner flags in tools' titles and descriptions (each distinct text once). */
    descriptionFlags: new DescriptionFlags(scanner),
    /** Short texts scanned whole (servers' instructions). */
    scanShort: (text: string) => scanner.scanShort(text),
    handlers: createRuleHandlers({
      view,
      save(text) {
        const { rules, errors } = parseRules(text);
        if (errors.length > 0) {
          const lines = errors.map((error) => `line ${error.line}, column ${error.column}: ${error.message}`);
          throw new HostCallError(
            'invalid_input',
            `The rules were not saved (the previous ones stay in force): ${lines.join('; ')}`,
            errors.map((error) => ({ path: ['text'], message: `Line ${error.line}, column ${error.column}: ${error.message}` })),
          );
        }
        store.write(text, deps.clock.now());
        userRules = rules;
        rebuild();
        const next = view();
        deps.events.emit('rulesChanged', next);
        return next;
      },
      async test({ serverId, tool, args, text }) {
        const server = deps.servers.get(serverId);
        if (!server) throw new HostCallError('invalid_input', 'That server no longer exists.');
        let rules = ruleSet;
        if (text !== undefined) {
          const parsed = parseRules(text);
          if (parsed.errors.length > 0) {
            const [first] = parsed.errors;
            throw new HostCallError('invalid_input', `Line ${first.line}, column ${first.column}: ${first.message}`);
          }
          rules = new RuleSet([...(organisation.current?.rules ?? []), ...parsed.rules]);
        }
        const rule = await decide(rules, serverId, server.name, tool, args);
        if (!rule)
          return { decision: 'none', summary: 'No rule applies: standing decisions and the consent dialog decide, as for any call.' };
        const named = ruleView(rule);
        const verb = {
          allow: 'would run without asking',
          ask: 'would ask you first',
          deny: 'would be denied (it never reaches the server)',
        }[rule.decision];
        return { decision: rule.decision, rule: named, summary: `This call ${verb}: ${named.words}.` };
      },
    }),
    snapshot: () => ({ rules: view() }),
    /**
     * The chat attached a server's resource to a conversation (it holds private data now) or used a
     * prompt; either, flagged by the scanner (`flagged`: what it found), is untrusted content too.
     */
    noteAttachment(use: { action: string; conversationId?: string; serverName: string; target: string; flagged?: string }) {
      if (!use.conversationId) return;
      if (use.action === 'attach') exposure.note(use.conversationId, 'private', `${use.target} from ${use.serverName}`);
      if (use.flagged) exposure.note(use.conversationId, 'untrusted', use.flagged);
    },
  };
}
