import { countHiddenChars, escapeHiddenChars } from './invisible-text';

/**
 * What a command line could do beyond running the server it names, said in words a user understands,
 * so that an install dialog (or any place that shows a command before it runs) can warn before the
 * user agrees. It reads the command as the host would start it: wrappers (`sudo`, `env`, `npx`, a
 * shell) are looked through to the program they run. It flags; it does not forbid — the user decides.
 */

export type CommandRiskKind =
  /** An argument makes it run code other than the named package: a shell command, inline code, a preloaded module. */
  | 'runs-other-code'
  /** It gives a container the computer's files (the whole disk, a system folder, Docker's own socket). */
  | 'host-access'
  /** It runs with more rights than a program normally has (administrator, a privileged container). */
  | 'privileges'
  /** An environment variable makes the program load code it would not otherwise load. */
  | 'code-injection'
  /** Characters that print as nothing or turn the text around: what is shown is not what runs. */
  | 'hidden-characters';

export interface CommandRisk {
  kind: CommandRiskKind;
  /** The argument or variable it is about, as written (hidden characters escaped). */
  subject: string;
  /** One sentence for the user: what it does and why it matters. */
  message: string;
}

/** What to look at: the program, its arguments and the environment it gets (values may be left out). */
export interface CommandToCheck {
  command: string;
  args: readonly string[];
  env?: readonly { key: string; value?: string }[];
}

/** Environment variables that load code into a program, and what each one does, in words. */
const INJECTING_ENV: [RegExp, string][] = [
  [/^NODE_OPTIONS$/i, 'can make Node.js load or run other code before the server'],
  [/^NODE_PATH$/i, 'changes where Node.js finds modules, so other code can stand in for the server’s'],
  [/^LD_PRELOAD$|^LD_AUDIT$/, 'loads a library into the program before anything else'],
  [/^LD_LIBRARY_PATH$/, 'changes where the program finds its libraries, so other code can stand in for them'],
  [/^DYLD_/, 'loads or swaps libraries of the program (macOS)'],
  [/^PYTHONPATH$|^PYTHONHOME$/, 'changes where Python finds modules, so other code can stand in for the server’s'],
  [/^PYTHONSTARTUP$|^PYTHONINSPECT$/, 'makes Python run another file'],
  [/^PERL5OPT$|^PERL5LIB$|^RUBYOPT$|^RUBYLIB$/, 'makes the interpreter load other code'],
  [/^JAVA_TOOL_OPTIONS$|^_JAVA_OPTIONS$|^JDK_JAVA_OPTIONS$/, 'can make Java load an agent (other code) into the program'],
  [/^BASH_ENV$|^ENV$|^PROMPT_COMMAND$/, 'makes the shell run another file or command'],
];

const SHELLS = new Set(['sh', 'bash', 'zsh', 'dash', 'ksh', 'fish', 'ash', 'csh', 'tcsh']);
const JS_RUNTIMES = new Set(['node', 'nodejs', 'deno', 'bun', 'electron']);
const PACKAGE_RUNNERS = new Set(['npx', 'bunx', 'pnpx']);
/** uv's and pipx's options that take the next argument as their value. */
const UV_VALUE_OPTIONS = new Set([
  '--from',
  '--with',
  '--python',
  '-p',
  '--index',
  '--index-url',
  '--extra-index-url',
  '--with-requirements',
  '--directory',
  '--project',
  '--env-file',
  '--spec',
]);
const ADMIN = new Set(['sudo', 'doas', 'pkexec', 'runas', 'su']);

/** Shortens a quoted piece of code for a sentence. */
function quoted(code: string): string {
  const shown = escapeHiddenChars(code);
  return `“${shown.length > 80 ? `${shown.slice(0, 79)}…` : shown}”`;
}

/** The program's name without folder or Windows extension, lower case (`/usr/bin/Node.exe` → `node`). */
function programName(command: string): string {
  return (
    command
      .split(/[\\/]/)
      .pop()!
      .toLowerCase()
      .replace(/\.(exe|cmd|bat|ps1)$/, '')
      // `node@20`, `npx`'s package spec
      .replace(/@[^/]*$/, '') || command
  );
}

/** An option's name and inline value (`--eval=x` → [`--eval`, `x`]). */
function splitOption(arg: string): [string, string | undefined] {
  const eq = arg.indexOf('=');
  return arg.startsWith('--') && eq > 0 ? [arg.slice(0, eq), arg.slice(eq + 1)] : [arg, undefined];
}

/** Every risk of a command line, in the order they appear; empty when nothing stands out. */
export function commandRisks({ command, args, env = [] }: CommandToCheck): CommandRisk[] {
  const risks: CommandRisk[] = [];
  hiddenRisks(command, args, env, risks);
  for (const variable of env) envRisk(variable.key, risks);
  checkProgram([command, ...args], risks, 0);
  return risks;
}

/** A risk when the text holds hidden characters (the command, an argument, a URL…), named by `where`. */
export function hiddenCharRisk(where: string, text: string): CommandRisk | undefined {
  const count = countHiddenChars(text);
  if (count === 0) return undefined;
  const what = count === 1 ? 'an invisible or direction-changing character' : `${count} invisible or direction-changing characters`;
  return {
    kind: 'hidden-characters',
    subject: escapeHiddenChars(text),
    message: `${where} holds ${what} (shown as \\u{…}): on screen it can read otherwise than it runs.`,
  };
}

function hiddenRisks(command: string, args: readonly string[], env: readonly { key: string; value?: string }[], risks: CommandRisk[]) {
  const add = (where: string, text: string) => {
    const risk = hiddenCharRisk(where, text);
    if (risk) risks.push(risk);
  };
  add('The command', command);
  args.forEach((arg, index) => add(`Argument ${index + 1}`, arg));
  for (const variable of env) {
    add(`The environment variable name ${escapeHiddenChars(variable.key)}`, variable.key);
    if (variable.value !== undefined) add(`The value of ${escapeHiddenChars(variable.key)}`, variable.value);
  }
}

function envRisk(key: string, risks: CommandRisk[], where = '') {
  const found = INJECTING_ENV.find(([pattern]) => pattern.test(key));
  if (found) risks.push({ kind: 'code-injection', subject: key, message: `${key}${where} ${found[1]}.` });
}

/** Looks at one program and its arguments; `depth` stops a wrapper of a wrapper of… from going on forever. */
function checkProgram(line: readonly string[], risks: CommandRisk[], depth: number): void {
  if (line.length === 0 || depth > 6) return;
  const [command, ...args] = line;
  const name = programName(command);
  if (ADMIN.has(name)) {
    risks.push({
      kind: 'privileges',
      subject: command,
      message: `${command} runs it as administrator, with every right on this computer.`,
    });
    const rest = args.findIndex((arg) => !arg.startsWith('-'));
    if (name === 'su') return shellCode(args, 'su', risks);
    return checkProgram(rest >= 0 ? args.slice(rest) : [], risks, depth + 1);
  }
  if (name === 'env') {
    let index = 0;
    while (index < args.length && (args[index].startsWith('-') || args[index].includes('='))) {
      const [key] = args[index].split('=');
      if (!args[index].startsWith('-')) envRisk(key, risks, ' (set by env)');
      index++;
    }
    return checkProgram(args.slice(index), risks, depth + 1);
  }
  if (['nice', 'nohup', 'exec', 'time', 'stdbuf', 'caffeinate'].includes(name)) {
    const rest = args.findIndex((arg) => !arg.startsWith('-'));
    return checkProgram(rest >= 0 ? args.slice(rest) : [], risks, depth + 1);
  }
  if (SHELLS.has(name)) return shellCode(args, name, risks);
  if (name === 'cmd') {
    const at = args.findIndex((arg) => /^\/[ck]$/i.test(arg));
    if (at >= 0) runsShell(name, args[at], args.slice(at + 1).join(' '), risks);
    return;
  }
  if (name === 'powershell' || name === 'pwsh') {
    const at = args.findIndex((arg) => /^-(c|command|e|enc|encodedcommand)$/i.test(arg));
    if (at >= 0) runsShell(name, args[at], args.slice(at + 1).join(' '), risks);
    return;
  }
  if (JS_RUNTIMES.has(name)) return nodeOptions(name, args, risks);
  if (['python', 'python3', 'pypy', 'pypy3'].includes(name) || /^python3\.\d+$/.test(name)) {
    const at = args.findIndex((arg) => arg === '-c');
    const script = args.findIndex((arg) => !arg.startsWith('-'));
    if (at >= 0 && (script < 0 || at < script)) inlineCode(name, '-c', args[at + 1] ?? '', risks);
    return;
  }
  if (['perl', 'ruby'].includes(name) || name === 'php') {
    const flag = name === 'php' ? '-r' : '-e';
    const at = args.indexOf(flag);
    if (at >= 0) inlineCode(name, flag, args[at + 1] ?? '', risks);
    return;
  }
  if (PACKAGE_RUNNERS.has(name)) return packageRunner(name, args, risks, depth);
  if ((name === 'npm' && args[0] === 'exec') || ((name === 'pnpm' || name === 'yarn') && args[0] === 'dlx')) {
    return packageRunner(`${name} ${args[0]}`, args.slice(1), risks, depth);
  }
  if (name === 'uvx' || (name === 'uv' && args[0] === 'run') || (name === 'pipx' && args[0] === 'run')) {
    const rest = name === 'uvx' ? args : args.slice(1);
    let at = 0;
    while (at < rest.length && rest[at].startsWith('-')) at += UV_VALUE_OPTIONS.has(rest[at]) ? 2 : 1;
    return checkProgram(rest.slice(at), risks, depth + 1);
  }
  if ((name === 'docker' || name === 'podman' || name === 'nerdctl') && (args[0] === 'run' || args[0] === 'create')) {
    return containerOptions(args.slice(1), risks);
  }
}

function runsShell(shell: string, flag: string, code: string, risks: CommandRisk[]) {
  risks.push({ kind: 'runs-other-code', subject: `${shell} ${flag}`, message: `${shell} ${flag} runs the shell command ${quoted(code)}.` });
}

function inlineCode(program: string, flag: string, code: string, risks: CommandRisk[]) {
  risks.push({
    kind: 'runs-other-code',
    subject: flag,
    message: `${program} ${flag} runs the code written here, ${quoted(code)}, rather than a package or file.`,
  });
}

/** `sh -c '…'` (and `sh -ec '…'`, `bash -lc '…'`): the shell runs that text as a command. */
function shellCode(args: readonly string[], shell: string, risks: CommandRisk[]) {
  const at = args.findIndex((arg) => /^-[a-z]*c[a-z]*$/i.test(arg) && !arg.startsWith('--'));
  const script = args.findIndex((arg) => !arg.startsWith('-'));
  if (at >= 0 && (script < 0 || at < script)) runsShell(shell, args[at], args[at + 1] ?? '', risks);
  else if (script >= 0) {
    risks.push({ kind: 'runs-other-code', subject: shell, message: `${shell} runs the shell script ${quoted(args[script])}.` });
  }
}

/** Node's (and Deno's, Bun's) options before the script: inline code, preloaded modules, loaders, a debugger port. */
function nodeOptions(name: string, args: readonly string[], risks: CommandRisk[]) {
  for (let index = 0; index < args.length; index++) {
    const [option, inline] = splitOption(args[index]);
    if (option === '--') return;
    if (!option.startsWith('-')) return; // the script: what follows is its own arguments
    const value = () => inline ?? args[++index] ?? '';
    if (['-e', '--eval', '-p', '--print', '-pe'].includes(option)) inlineCode(name, option, value(), risks);
    else if (['-r', '--require', '--import', '--loader', '--experimental-loader', '--preload'].includes(option)) {
      const module = value();
      risks.push({
        kind: 'runs-other-code',
        subject: `${option} ${escapeHiddenChars(module)}`,
        message: `${name} ${option} loads ${quoted(module)} before the server: that code runs with it, whatever the package is.`,
      });
    } else if (/^--inspect(-brk|-wait)?$/.test(option)) {
      risks.push({
        kind: 'runs-other-code',
        subject: option,
        message: `${name} ${option} opens a debugger port: anything that reaches it can run code in the server.`,
      });
    }
  }
}

/** npx and friends: their own options (`-c`, `--call`, `--node-options`), then the package they run, looked at in turn. */
function packageRunner(name: string, args: readonly string[], risks: CommandRisk[], depth: number) {
  for (let index = 0; index < args.length; index++) {
    const [option, inline] = splitOption(args[index]);
    if (option === '--') return checkProgram(args.slice(index + 1), risks, depth + 1);
    if (!option.startsWith('-')) return checkProgram(args.slice(index), risks, depth + 1);
    if (option === '-c' || option === '--call') {
      const code = inline ?? args[++index] ?? '';
      risks.push({
        kind: 'runs-other-code',
        subject: `${name} ${option}`,
        message: `${name} ${option} runs the shell command ${quoted(code)} instead of the package.`,
      });
      return;
    }
    if (option === '--node-options') {
      const value = inline ?? args[++index] ?? '';
      risks.push({
        kind: 'code-injection',
        subject: option,
        message: `${name} ${option} passes ${quoted(value)} to Node.js, which can make it load or run other code.`,
      });
    } else if (option === '-p' || option === '--package' || option === '--registry' || option === '--userconfig') index += inline ? 0 : 1;
  }
}

/** `docker run` options that take a value as the next argument (so the image, the first positional, is found). */
const DOCKER_VALUE_OPTIONS = new Set(
  (
    '-e --env --env-file -v --volume --mount --entrypoint --network --net --cap-add --cap-drop --pid --ipc --uts --userns -u --user ' +
    '-w --workdir --device --security-opt --name -l --label --platform --add-host -h --hostname -m --memory --cpus -p --publish ' +
    '--tmpfs --restart --runtime --log-driver --log-opt --ulimit --gpus --dns --volumes-from --cgroupns --group-add --pull'
  ).split(' '),
);

/** Host folders that mean the whole computer, a user's files, the system's settings, or control of Docker itself. */
function sensitiveHostPath(source: string): string | undefined {
  const path = source.replace(/\\/g, '/').replace(/\/+$/, '') || '/';
  if (path === '/' || /^[a-z]:\/?$/i.test(path)) return 'your computer’s whole file system';
  if (/docker\.sock$|podman\.sock$/.test(path)) return 'control of Docker, and through it of this computer';
  if (/^(~|\$HOME|\$\{HOME\})$/.test(path) || /^\/(home|Users)(\/[^/]+)?$/.test(path) || path === '/root') return 'your home folder';
  if (/^\/(etc|var|usr|bin|sbin|boot|dev|proc|sys|run|lib|private)(\/|$)/.test(path) || /^[a-z]:\/windows/i.test(path)) {
    return `the system folder ${path}`;
  }
  return undefined;
}

function containerOptions(args: readonly string[], risks: CommandRisk[]) {
  for (let index = 0; index < args.length; index++) {
    const arg = args[index];
    if (!arg.startsWith('-') || arg === '--') return; // the image: what follows is the container's command
    let [option, value] = splitOption(arg);
    // `-v/x:/y` and `-eFOO=bar`: a short option with its value attached.
    if (/^-[a-zA-Z]./.test(option) && DOCKER_VALUE_OPTIONS.has(option.slice(0, 2))) [option, value] = [option.slice(0, 2), option.slice(2)];
    if (value === undefined && DOCKER_VALUE_OPTIONS.has(option)) value = args[++index] ?? '';
    const written = value === undefined ? option : `${option} ${value}`;
    const add = (kind: CommandRiskKind, message: string) => risks.push({ kind, subject: escapeHiddenChars(written), message });
    if (option === '--privileged')
      add('privileges', '--privileged gives the container full control of this computer: every device, no isolation.');
    else if (option === '--cap-add')
      add('privileges', `--cap-add ${value} gives the container the system right ${value} it normally does not have.`);
    else if (['--pid', '--ipc', '--uts', '--userns', '--cgroupns'].includes(option) && value === 'host') {
      add(
        'privileges',
        `${option}=host lets the container share this computer’s ${option === '--pid' ? 'processes (see and signal every one)' : option.slice(2).toUpperCase() + ' namespace'}.`,
      );
    } else if ((option === '--network' || option === '--net') && value === 'host') {
      add(
        'privileges',
        `${option}=host puts the container on this computer’s own network, reaching services only this computer should reach.`,
      );
    } else if (option === '--security-opt' && /unconfined|no-new-privileges[:=]false/.test(value ?? '')) {
      add('privileges', `--security-opt ${value} turns off a protection that keeps the container in its box.`);
    } else if (option === '--device')
      add('privileges', `--device ${value} gives the container this computer’s device ${value?.split(':')[0]}.`);
    else if (option === '--entrypoint') {
      add('runs-other-code', `--entrypoint ${quoted(value ?? '')} runs that program inside the container instead of the image’s own.`);
    } else if (option === '-v' || option === '--volume') {
      const what = sensitiveHostPath(
        (value ?? '')
          .split(':')
          .slice(0, /^[a-z]:[\\/]/i.test(value ?? '') ? 2 : 1)
          .join(':'),
      );
      if (what) add('host-access', `${option} ${value} gives the container ${what}.`);
    } else if (option === '--mount') {
      const source = /(?:^|,)(?:source|src)=([^,]*)/.exec(value ?? '')?.[1];
      const what = source !== undefined && !/type=(volume|tmpfs)/.test(value ?? '') ? sensitiveHostPath(source) : undefined;
      if (what) add('host-access', `--mount ${value} gives the container ${what}.`);
    } else if (option === '-e' || option === '--env') {
      envRisk((value ?? '').split('=')[0], risks, ' (set in the container)');
    }
  }
}
