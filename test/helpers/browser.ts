/**
 * Chromium or Chrome where it usually lives, for the tests that look at a page in a real browser.
 * Not found: the test is skipped with one line saying how to run it, except under CI=true, where it
 * is required (.ci/run installs Debian's chromium).
 */
import { existsSync } from 'node:fs';
import { optionalTool } from './tools.js';

const CANDIDATES = [
  process.env.CHROMIUM_PATH,
  '/usr/bin/chromium',
  '/usr/bin/chromium-browser',
  '/usr/bin/google-chrome',
  '/usr/bin/google-chrome-stable',
  '/snap/bin/chromium',
  '/Applications/Google Chrome.app/Contents/MacOS/Google Chrome',
  '/Applications/Chromium.app/Contents/MacOS/Chromium',
  'C:\\Program Files\\Google\\Chrome\\Application\\chrome.exe',
  'C:\\Program Files (x86)\\Google\\Chrome\\Application\\chrome.exe',
];

const browser = optionalTool(
  'browser',
  CANDIDATES.find((p): p is string => typeof p === 'string' && p !== '' && existsSync(p)),
  'install Chromium (apt-get install chromium) or set CHROMIUM_PATH',
);

/** For `it.skipIf(browserMissing)`: no browser here and none required (under CI=true a missing one fails). */
export const browserMissing = browser.skip;

export function browserPath(): string {
  return browser.path();
}
