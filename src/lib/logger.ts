import { type Logger, pino } from 'pino';

export type { Logger };

/**
 * JSON logs: on stdout for servers, on stderr for CLI commands whose stdout is data.
 * Secrets are redacted by path wherever they could appear by mistake.
 */
export function createLogger(options: { level?: string; destination?: 1 | 2; name?: string } = {}): Logger {
  return pino(
    {
      level: options.level ?? process.env.KASSA_LOG_LEVEL ?? 'info',
      name: options.name ?? 'kassa',
      base: { pid: process.pid },
      redact: {
        paths: [
          'token',
          'webhookSecret',
          'mnemonic',
          'masterKey',
          'privateKey',
          '*.token',
          '*.webhookSecret',
          '*.mnemonic',
          '*.privateKey',
          'req.headers.authorization',
        ],
        censor: '[redacted]',
      },
    },
    pino.destination({ dest: options.destination ?? 1, sync: false }),
  );
}

/** A logger that writes nothing, for tests that do not read logs. */
export function silentLogger(): Logger {
  return pino({ level: 'silent' });
}

/** Removes credentials from an RPC URL before it is logged: user info, query strings and long path keys. */
export function redactUrl(url: string): string {
  try {
    const u = new URL(url);
    const path = u.pathname
      .split('/')
      .map((part) => (part.length >= 16 && /[0-9a-f]/i.test(part) ? '***' : part))
      .join('/');
    return `${u.protocol}//${u.host}${path}${u.search ? '?***' : ''}`;
  } catch {
    return '[unparseable url]';
  }
}
