import pino from 'pino';

/** JSON logs; credentials never reach them. */
export function createLogger(level: string) {
  return pino({
    level,
    base: undefined,
    redact: {
      paths: [
        'req.headers.authorization',
        'req.headers.cookie',
        'headers.authorization',
        'headers.cookie',
        '*.password',
        '*.token',
        '*.accessToken',
        'password',
        'token',
        'accessToken',
      ],
      censor: '[redacted]',
    },
  });
}

export type AppLogger = ReturnType<typeof createLogger>;
