/**
 * Chromium or Chrome where it usually lives, for the tests that look at a page in a real browser.
 * Not found: the test is skipped with one line saying how to run it, except under CI=true, where it
 * is required (.ci/run installs Debian's chromium).
 */
import { existsSync } from 'node:fs';

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

export const BROWSER_PATH = CANDIDATES.find((p): p is string => typeof p === 'string' && p !== '' && existsSync(p));

const required = process.env.CI === 'true';
if (!BROWSER_PATH && !required)
  process.stderr.write('browser tests skipped: no Chromium or Chrome found; install one (apt-get install chromium) or set CHROMIUM_PATH to run them\n');

/** For `it.skipIf(browserMissing)`: no browser here and none required (under CI=true a missing one fails). */
export const browserMissing = !BROWSER_PATH && !required;

export function browserPath(): string {
  if (!BROWSER_PATH) throw new Error('no Chromium or Chrome found (CI=true requires one): apt-get install chromium, or set CHROMIUM_PATH');
  return BROWSER_PATH;
}
