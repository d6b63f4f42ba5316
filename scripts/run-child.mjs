import { spawn } from 'node:child_process';

/** Runs a child with our stdio, forwards Ctrl-C / SIGTERM to it, and exits with its status. */
export function runChild(command, args, options = {}) {
  const child = spawn(command, args, { stdio: 'inherit', ...options });
  for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
  child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
}
