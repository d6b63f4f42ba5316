import { parseArgs } from 'node:util';
import { defaultDataDir } from '../core/data-dir';

export interface WebCliOptions {
  port: number;
  open: boolean;
  dataDir: string;
}

export const WEB_USAGE = `Usage: npm run web -- [--port N] [--no-open] [--data-dir DIR]

  --port N        listen on 127.0.0.1:N (default: a free port)
  --no-open       do not open the default browser
  --data-dir DIR  data directory (default: $PATCHBAY_DATA_DIR, else the per-user directory the app uses)`;

/** Parses web-mode flags; throws an Error whose message is fit to print on a bad flag. */
export function parseWebArgs(argv: string[], env: NodeJS.ProcessEnv): WebCliOptions | 'help' {
  const { values } = parseArgs({
    args: argv,
    options: {
      port: { type: 'string' },
      open: { type: 'boolean', default: true },
      'no-open': { type: 'boolean' },
      'data-dir': { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
    strict: true,
  });
  if (values.help) return 'help';
  const port = values.port === undefined ? 0 : Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`--port must be 0–65535, got "${values.port}"`);
  const dataDir = values['data-dir'] ? defaultDataDir({ PATCHBAY_DATA_DIR: values['data-dir'] }) : defaultDataDir(env);
  return { port, open: !values['no-open'], dataDir };
}
