import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type BrowserContext, chromium, type LaunchOptions } from 'playwright-core';

/** Debian's Chromium (CI installs it); CHROMIUM_PATH points elsewhere. Without it browser tests skip. */
export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
export const hasChromium = existsSync(CHROMIUM);

type ContextOptions = Omit<Parameters<typeof chromium.launchPersistentContext>[1], keyof LaunchOptions>;

/**
 * Headless Chromium on a fresh profile directory of its own, with nothing that reaches the network by
 * itself (this machine's network is closed: background requests would be refused, many at a time).
 * `close()` also removes the profile directory.
 */
export async function launchChromium(options: ContextOptions = {}): Promise<BrowserContext> {
  const profileDir = mkdtempSync(join(tmpdir(), 'folio-chromium-'));
  const context = await chromium.launchPersistentContext(profileDir, {
    ...options,
    executablePath: CHROMIUM,
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
  // Removed once the browser has exited (it writes to the profile until then).
  const close = context.close.bind(context);
  context.close = async (opts) => {
    await close(opts);
    rmSync(profileDir, { recursive: true, force: true, maxRetries: 5 });
  };
  return context;
}
