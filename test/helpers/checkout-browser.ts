/**
 * What the browser tests of the checkout component share: headless Chromium, the card typed into the
 * card fields' frame, screenshots kept in .test-logs/, and the check that no card data reached a
 * shop's server.
 */
import { mkdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { chromium, type Browser, type FrameLocator, type Page } from 'playwright-core';
import { expect } from 'vitest';
import { browserPath } from './browser.js';
import { LOG_DIR } from './logs.js';
import { CARDS } from './sandbox.js';
import type { ShopRequest } from './shop-server.js';

/** The security code and expiry the tests type: a test looks for them where they must not be. */
const CVC = '737';
const EXPIRY = '11/33';

export const launchBrowser = (): Promise<Browser> =>
  chromium.launch({
    executablePath: browserPath(),
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking'],
  });

/** Screenshots of one test file, in .test-logs/<folder>/. */
export function screenshots(folder: string) {
  const dir = join(LOG_DIR, folder);
  return async (page: Page, name: string) => {
    mkdirSync(dir, { recursive: true });
    const path = join(dir, `${name}.png`);
    await page.screenshot({ path, fullPage: true });
    expect(statSync(path).size).toBeGreaterThan(2_000);
  };
}

/** A card typed into the card fields (number in groups of four, as a shopper types it). */
export async function typeCard(fields: FrameLocator, card: string): Promise<void> {
  await fields.locator('#number').fill(card.replace(/(\d{4})(?=\d)/g, '$1 '));
  await fields.locator('#expiry').fill(EXPIRY);
  await fields.locator('#cvc').fill(CVC);
}

/** No test card (plain, spaced or form-encoded), expiry or CVC in any request's URL, headers or body. */
export function expectNoCardData(requests: readonly ShopRequest[]): void {
  // every header but the body's length, which may be any number
  const text = requests
    .map((r) => `${r.url}\n${JSON.stringify({ ...r.headers, 'content-length': undefined })}\n${r.body}`)
    .join('\n');
  for (const card of Object.values(CARDS)) {
    expect(text).not.toContain(card);
    expect(text).not.toContain(card.replace(/(\d{4})(?=\d)/g, '$1 '));
    expect(text).not.toContain(card.replace(/(\d{4})(?=\d)/g, '$1+'));
  }
  expect(text).not.toMatch(new RegExp(`\\b${CVC}\\b|${encodeURIComponent(EXPIRY)}|${EXPIRY}`));
}
