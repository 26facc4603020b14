import pino from 'pino';

/** JSON logs; credentials (and an e.firma's key, password and SAT token) never reach them. */
export function createLogger(level: string, destination?: pino.DestinationStream) {
  return pino(
    {
      level,
      base: undefined,
      redact: {
        paths: [
          'req.headers.authorization',
          'req.headers.cookie',
          'headers.authorization',
          'headers.Authorization',
          'headers.cookie',
          '*.headers.authorization',
          '*.headers.Authorization',
          '*.password',
          '*.token',
          '*.accessToken',
          '*.key',
          'password',
          'token',
          'accessToken',
          'key',
        ],
        censor: '[redacted]',
      },
    },
    destination,
  );
}

export type AppLogger = ReturnType<typeof createLogger>;
