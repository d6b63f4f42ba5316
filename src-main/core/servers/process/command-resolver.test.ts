import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { getLoginShellPath, loginShellPathFor, readLoginShellPath, resolveCommand, startedFromShell } from './command-resolver';
import { LaunchError } from './launch-error';
import { testScope } from '../../../test-support/fixtures';
import { waitFor } from '../wait';

/** A temp dir with executable scripts; removed when the test ends. */
function sandbox(files: Record<string, string>, mode = 0o755): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'patchbay-resolve-'));
  for (const [name, content] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
    fs.writeFileSync(path.join(dir, name), content, { mode });
  }
  testScope().defer(() => fs.rmSync(dir, { recursive: true, force: true }));
  return dir;
}

describe('resolveCommand', () => {
  it('searches the configured PATH, then the login-shell PATH, then the inherited one', async () => {
    const dir = sandbox({ 'configured/tool': '#!/bin/sh\n', 'login/tool': '#!/bin/sh\n', 'login/only-in-login': '#!/bin/sh\n' });
    const options = {
      configuredPath: `${dir}/configured`,
      inheritedPath: `/usr/bin:${dir}/login`,
      loginShellPath: async () => [`${dir}/login`, '/usr/bin'],
    };
    expect(await resolveCommand('tool', options)).toEqual({
      file: `${dir}/configured/tool`,
      pathEnv: `${dir}/configured:${dir}/login:/usr/bin`,
      searched: [`${dir}/configured`, `${dir}/login`, '/usr/bin'],
    });
    // A GUI app's minimal PATH lacks it, the login shell's PATH has it.
    expect((await resolveCommand('only-in-login', { inheritedPath: '/usr/bin', loginShellPath: async () => [`${dir}/login`] })).file).toBe(
      `${dir}/login/only-in-login`,
    );
  });

  it('names the command and every directory searched when it is not found', async () => {
    const error = await resolveCommand('npx', { inheritedPath: '/a:/b', loginShellPath: async () => ['/c'] }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(LaunchError);
    expect(error).toMatchObject({ code: 'command-not-found', message: '`npx` not found on PATH (searched: /c, /a, /b)' });
  });

  it('resolves a relative command against the working directory and checks it is executable', async () => {
    const dir = sandbox({ 'bin/server': '#!/bin/sh\n' });
    expect((await resolveCommand('./bin/server', { cwd: dir, loginShellPath: async () => [] })).file).toBe(`${dir}/bin/server`);
    await expect(resolveCommand('./bin/missing', { cwd: dir, loginShellPath: async () => [] })).rejects.toMatchObject({
      code: 'command-not-found',
      message: `\`./bin/missing\` not found (looked for ${dir}/bin/missing)`,
    });
    await expect(resolveCommand('./bin', { cwd: dir, loginShellPath: async () => [] })).rejects.toMatchObject({ code: 'not-executable' });
  });

  it('reports a bare command that exists only without the execute bit', async () => {
    const dir = sandbox({ tool: '#!/bin/sh\n' }, 0o644);
    await expect(resolveCommand('tool', { inheritedPath: dir, loginShellPath: async () => [] })).rejects.toMatchObject({
      code: 'not-executable',
      message: `\`tool\` was found at ${dir}/tool but is not executable (permission denied)`,
    });
  });

  it('reports a missing or non-directory working directory', async () => {
    const dir = sandbox({ file: '' });
    await expect(resolveCommand('node', { cwd: `${dir}/nope` })).rejects.toMatchObject({
      code: 'cwd-missing',
      message: `Working directory ${dir}/nope does not exist`,
    });
    await expect(resolveCommand('node', { cwd: `${dir}/file` })).rejects.toMatchObject({
      message: `Working directory ${dir}/file is not a directory`,
    });
  });
});

describe('readLoginShellPath', () => {
  it('reads PATH from a real login shell', async () => {
    // The POSIX shell, which reads /etc/profile and ~/.profile: the machine's bash rc files are the
    // user's own (one here runs `pyenv init`, which never finishes without a terminal).
    const entries = await readLoginShellPath({ shell: '/bin/sh', timeoutMs: 25_000 });
    expect(entries.length).toBeGreaterThan(0);
    expect(entries.every((entry) => entry.startsWith('/'))).toBe(true);
  });

  it('ignores banners that rc files print around the PATH', async () => {
    const dir = sandbox({
      'fake-shell': '#!/bin/sh\necho "Welcome to your shell!"\nprintf "__PATCHBAY_PATH__/opt/a:/opt/b__PATCHBAY_PATH__"\necho bye\n',
    });
    expect(await readLoginShellPath({ shell: `${dir}/fake-shell` })).toEqual(['/opt/a', '/opt/b']);
  });

  it('takes the PATH as soon as it is printed, and ends what the rc files left running', async () => {
    // An rc file's background job holds stdout open; the shell itself would sit for the time-out.
    const dir = sandbox({
      'lingering-shell': `#!/bin/sh\n(sleep 60; echo late) &\necho $! > "$(dirname "$0")/pid"\nprintf "__PATCHBAY_PATH__/opt/a__PATCHBAY_PATH__"\nsleep 60\n`,
    });
    const scope = testScope();
    expect(await readLoginShellPath({ shell: `${dir}/lingering-shell`, timeoutMs: 25_000 })).toEqual(['/opt/a']);
    const pid = Number(fs.readFileSync(`${dir}/pid`, 'utf8').trim());
    scope.track(pid);
    await waitFor(() => !isAlive(pid), { what: "the rc file's background job to end" });
  });

  it('gives up on a hanging shell, kills it, and falls back to nothing', async () => {
    const dir = sandbox({ 'slow-shell': `#!/bin/sh\necho $$ > "$(dirname "$0")/pid"\nsleep 30\n` });
    const scope = testScope();
    const started = Date.now();
    expect(await readLoginShellPath({ shell: `${dir}/slow-shell`, timeoutMs: 300 })).toEqual([]);
    expect(Date.now() - started).toBeLessThan(5000);
    scope.track(Number(await waitFor(() => fs.existsSync(`${dir}/pid`) && fs.readFileSync(`${dir}/pid`, 'utf8').trim())));
  });

  it('tolerates a missing shell', async () => {
    expect(await readLoginShellPath({ shell: '/no/such/shell' })).toEqual([]);
    expect(await readLoginShellPath({ shell: '' })).toEqual([]);
  });
});

describe('loginShellPathFor', () => {
  it("web mode started from a shell uses that shell's PATH and starts no login shell", async () => {
    const supplier = loginShellPathFor('web', { SHLVL: '1', SHELL: '/bin/bash' });
    expect(supplier).not.toBe(getLoginShellPath);
    expect(await supplier()).toEqual([]);
  });

  it('asks the login shell for the desktop app, and for web mode started without a shell', () => {
    expect(loginShellPathFor('electron', { SHLVL: '1' })).toBe(getLoginShellPath);
    expect(loginShellPathFor('web', {})).toBe(getLoginShellPath);
    expect(loginShellPathFor('web', { SHLVL: ' ' })).toBe(getLoginShellPath);
  });

  it('knows a shell started the process by SHLVL', () => {
    expect(startedFromShell({ SHLVL: '2' })).toBe(true);
    expect(startedFromShell({ TERM: 'xterm' })).toBe(false);
  });
});

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}
