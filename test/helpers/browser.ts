/** Chromium for the tests of pages voicectl writes or serves: headless, offline, nothing of its own to fetch. */
import { chromium, type Browser } from 'playwright-core';
import { which } from './requires.js';

export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: which('chromium'),
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
  });
}
