/**
 * Tasks end to end in the core against server-everything: `simulate-research-query` (a tool that
 * requires a task: status messages as it goes, an elicitation while it needs input, the result by
 * `tasks/result`), cancelling it (`tasks/cancel`), and the server's async sampling and elicitation
 * requests that Patchbay runs as tasks while the usual dialogs answer them.
 */
import Database from 'better-sqlite3';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import type { TaskView } from '@contract';
import { startScriptedLlm, type ScriptedLlm } from '../chat/test-support/scripted-llm';
import { startHost } from '../../test-support/tool-host';
import { DATABASE_FILE } from '../store/database';
import { waitFor } from '../servers/wait';
import { approveSampling, sendSampling, answerElicitation } from '../../test-support/answers';

let llm: ScriptedLlm;
beforeAll(async () => {
  llm = await startScriptedLlm();
});
afterAll(async () => {
  await llm?.stop();
});

const text = (outcome: unknown) => JSON.stringify(outcome);

describe('tool calls run as tasks', () => {
  it('follows simulate-research-query through its stages to the result, recording each status', async () => {
    const t = startHost();
    const id = await t.everything();
    const tools = await t.api.listTools({ serverId: id });
    expect(tools.find((tool) => tool.name === 'simulate-research-query')).toMatchObject({ runsAsTask: true });
    expect(tools.find((tool) => tool.name === 'echo')?.runsAsTask).toBeUndefined();

    const outcome = await t.api.runTool({ serverId: id, tool: 'simulate-research-query', args: { topic: 'tides' } });
    expect(outcome.status).toBe('ok');
    expect(text(outcome)).toContain('Research Report: tides');

    const messages = t.events.flatMap((e) => (e.name === 'taskChanged' ? [e.payload.statusMessage] : []));
    expect(messages).toEqual(expect.arrayContaining(['Gathering sources...', 'Analyzing content...']));
    const [task] = await t.api.listTasks({ serverId: id });
    expect(task).toMatchObject({ side: 'server', kind: 'tool', tool: 'simulate-research-query', status: 'completed', origin: 'user' });
    expect(task.pollIntervalMs).toBe(1000);
    // The running call carried the task while it ran (a card follows it).
    expect(t.events.some((e) => e.name === 'toolCallTask' && e.payload.task.status === 'working')).toBe(true);
    expect((await t.api.getSnapshot()).tasks.recent[0]?.id).toBe(task.id);
  });

  it('asks the user when the task needs input (input_required → the elicitation dialog) and goes on with the answer', async () => {
    const t = startHost();
    const id = await t.everything();
    const run = t.api.runTool({ serverId: id, tool: 'simulate-research-query', args: { topic: 'python', ambiguous: true } });
    const asked = await t.asked('elicitation');
    expect(asked.message).toContain('could have multiple interpretations');
    await t.next('taskChanged', (task) => task.status === 'input_required', 0);
    await answerElicitation(t.api, { id: asked.id, action: 'accept', content: { interpretation: 'snake' } });
    const outcome = await run;
    expect(outcome.status).toBe('ok');
    expect(text(outcome)).toContain('python (snake)');
  });

  it('Cancel sends tasks/cancel: the call ends as cancelled, the task too, and says who cancelled it', async () => {
    const t = startHost();
    const id = await t.everything();
    const run = t.api.runTool({ serverId: id, tool: 'simulate-research-query', args: { topic: 'slow' } });
    const task = await t.next('taskChanged', (view) => view.status === 'working');
    await t.api.cancelTask({ id: task.id });
    const outcome = await run;
    expect(outcome.status).toBe('cancelled');
    const done = await t.next('taskChanged', (view) => view.id === task.id && view.status === 'cancelled', 0);
    expect(done.note).toMatch(/Cancelled: Cancelled by the user/);
    await expect(t.api.cancelTask({ id: task.id })).rejects.toMatchObject({ code: 'invalid_input' });
    const sent = await t.api.queryLogs({ serverId: id, stream: 'protocol', method: 'tasks/cancel', limit: 10 });
    expect(sent.entries.some((e) => e.direction === 'out' && e.kind === 'request')).toBe(true);
  });
});

describe('tasks across quitting and restarting', () => {
  it('on quit, a running task is cancelled on its server, recorded so, and the log says so', async () => {
    const t = startHost();
    const id = await t.everything();
    const run = t.api.runTool({ serverId: id, tool: 'simulate-research-query', args: { topic: 'long' } });
    const task = await t.next('taskChanged', (view) => view.status === 'working', 0);
    await t.host.dispose();
    expect((await run).status).toBe('cancelled');
    const log = fs.readFileSync(path.join(t.dataDir, 'logs', 'patchbay.log'), 'utf8');
    expect(log).toMatch(new RegExp(`Cancelled task ${task.taskId} \\(tool "simulate-research-query"\\): Patchbay is quitting`));

    const again = startHost(t.dataDir);
    const [record] = await again.api.listTasks({ serverId: id });
    expect(record).toMatchObject({ id: task.id, status: 'cancelled', note: 'Cancelled: Patchbay is quitting' });
  });

  it('after a restart, unfinished tasks are asked about again: a restarted server has forgotten its own (lost); ours are cancelled', async () => {
    const first = startHost();
    const id = await first.everything();
    await first.host.dispose();
    // What a Patchbay killed mid-task leaves behind: records still running.
    const db = new Database(path.join(first.dataDir, DATABASE_FILE));
    const row = (rowId: string, side: string, kind: string, taskId: string) =>
      db
        .prepare(
          `INSERT INTO tasks (id, server_id, server_name, task_id, side, kind, tool_name, status, created_at, updated_at)
           VALUES (?, ?, 'everything', ?, ?, ?, ?, 'working', '2026-01-01T00:00:00.000Z', '2026-01-01T00:00:00.000Z')`,
        )
        .run(rowId, id, taskId, side, kind, kind === 'tool' ? 'simulate-research-query' : null);
    row('server-task', 'server', 'tool', 'forgotten-by-the-server');
    row('client-task', 'client', 'sampling', 'ours');
    db.close();

    const again = startHost(first.dataDir);
    onTestFinished(() => again.host.dispose());
    expect((await again.api.listTasks({})).find((task) => task.id === 'client-task')).toMatchObject({
      status: 'cancelled',
      note: 'Patchbay stopped before it was answered',
    });
    void again.host.startServers();
    const lost = await waitFor(
      async () => (await again.api.listTasks({})).find((task) => task.id === 'server-task' && task.status === 'lost'),
      {
        timeoutMs: 30_000,
        what: 'the forgotten task to be recorded as lost',
      },
    );
    expect(lost.note).toMatch(/everything/);
  });
});

describe('requests Patchbay runs as tasks for a server', () => {
  async function ready() {
    const t = startHost();
    await t.api.setApiKey({ apiKey: 'sk-ant-tasks-test' });
    await t.api.updateSettings({ anthropicBaseUrl: llm.url });
    await llm.reset();
    const id = await t.everything();
    return { t, id };
  }

  it('trigger-sampling-request-async: accepted as a task, answered through the Sampling dialog, polled to its result', async () => {
    const { t, id } = await ready();
    await llm.script([{ type: 'text', text: 'Async answer.' }]);
    const tools = await t.api.listTools({ serverId: id });
    expect(tools.map((tool) => tool.name)).toContain('trigger-sampling-request-async');
    const run = t.api.runTool({ serverId: id, tool: 'trigger-sampling-request-async', args: { prompt: 'Tell me', maxTokens: 40 } });
    const asked = await t.asked('sampling');
    const task = await t.next('taskChanged', (view: TaskView) => view.kind === 'sampling', 0);
    expect(task).toMatchObject({ side: 'client', status: 'working', serverName: 'everything' });
    await approveSampling(t.api, { id: asked.id, model: asked.model });
    const review = await t.updated('sampling', (view) => view.stage === 'review');
    await sendSampling(t.api, { id: asked.id, text: review.response!.text });
    const outcome = await run;
    expect(text(outcome)).toContain('[COMPLETED] Async sampling completed');
    expect(text(outcome)).toContain('Async answer.');
    await t.next('taskChanged', (view) => view.id === task.id && view.status === 'completed', 0);
  });

  it('trigger-elicitation-request-async: the "asks…" dialog answers a task the server polls', async () => {
    const { t, id } = await ready();
    const run = t.api.runTool({ serverId: id, tool: 'trigger-elicitation-request-async', args: {} });
    const asked = await t.asked('elicitation');
    const task = await t.next('taskChanged', (view: TaskView) => view.kind === 'elicitation', 0);
    await answerElicitation(t.api, { id: asked.id, action: 'decline' });
    const outcome = await run;
    expect(text(outcome)).toMatch(/decline/i);
    await t.next('taskChanged', (view) => view.id === task.id && view.status === 'completed', 0);
  });
});
