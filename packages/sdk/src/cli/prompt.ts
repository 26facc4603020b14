import { createInterface } from 'node:readline';
import type { Io } from './io';

/** Reads all of stdin (for `--password-stdin`), without the final newline. */
export async function readStdin(io: Io): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of io.stdin)
    chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(String(chunk)));
  return Buffer.concat(chunks)
    .toString('utf8')
    .replace(/\r?\n$/, '');
}

/** Asks on the terminal; with `hidden` nothing typed is echoed (passwords). */
export function ask(io: Io, question: string, hidden = false): Promise<string> {
  const { stdin, stderr } = io;
  if (!hidden || !stdin.isTTY || !stdin.setRawMode) {
    const rl = createInterface({ input: stdin, output: stderr as NodeJS.WritableStream, terminal: false });
    stderr.write(question);
    return new Promise((resolve) => {
      rl.once('line', (line) => {
        rl.close();
        resolve(line);
      });
      rl.once('close', () => resolve(''));
    });
  }
  stderr.write(question);
  stdin.setRawMode(true);
  stdin.resume();
  return new Promise((resolve, reject) => {
    let value = '';
    const onData = (chunk: Buffer | string) => {
      for (const ch of String(chunk)) {
        if (ch === '\r' || ch === '\n' || ch === '\u0004') {
          finish();
          resolve(value);
          return;
        }
        if (ch === '\u0003') {
          finish();
          reject(new Error('cancelled'));
          return;
        }
        if (ch === '\u007f' || ch === '\b') value = [...value].slice(0, -1).join('');
        else value += ch;
      }
    };
    const finish = () => {
      stdin.off('data', onData);
      stdin.setRawMode?.(false);
      stdin.pause();
      stderr.write('\n');
    };
    stdin.on('data', onData);
  });
}
