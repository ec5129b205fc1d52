/**
 * The checkout web component in a real browser: the demo shop, opened through the gateway, takes each
 * sandbox test card end to end (paid, declined, 3DS approved in the page, refund, a saved card reused
 * through L19), the form is accessible, and the script stays under its size budget.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { chromium, type Browser, type FrameLocator, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHECKOUT_SCRIPT, CHECKOUT_SCRIPT_BUDGET_BYTES } from '../../src/sandbox/checkout/component.js';
import { browserMissing, browserPath } from '../helpers/browser.js';
import { spawnGateway } from '../helpers/gateway.js';
import { LOG_DIR } from '../helpers/logs.js';
import { CARDS } from '../helpers/sandbox.js';

describe('the checkout component script', () => {
  it(`is plain browser code under its budget of ${CHECKOUT_SCRIPT_BUDGET_BYTES} bytes`, () => {
    const bytes = Buffer.byteLength(CHECKOUT_SCRIPT);
    expect(bytes).toBeLessThan(CHECKOUT_SCRIPT_BUDGET_BYTES);
    expect(CHECKOUT_SCRIPT).toContain('window[G.name]');
    expect(CHECKOUT_SCRIPT).toContain('"name":"LimepayCheckout"');
    expect(CHECKOUT_SCRIPT).not.toMatch(/\bimport\b|\brequire\(/);
  });
});

describe.skipIf(browserMissing)('the demo shop in headless Chromium, through the gateway', () => {
  let gw: Awaited<ReturnType<typeof spawnGateway>>;
  let browser: Browser;
  let page: Page;
  beforeAll(async () => {
    gw = await spawnGateway([]);
    browser = await chromium.launch({
      executablePath: browserPath(),
      args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking'],
    });
  }, 30_000);
  afterAll(async () => {
    await browser?.close();
    await gw?.stop();
  });

  async function openShop() {
    page = await browser.newPage();
    const res = await page.goto(`${gw.url}/sandbox/shop`);
    expect(res?.status()).toBe(200);
    await fields('#limepay-checkout').locator('input[autocomplete="cc-number"]').waitFor();
  }
  /** The card fields: a frame of the payment origin inside the shop's element. */
  const fields = (root: string): FrameLocator => page.frameLocator(`${root} iframe`);
  async function typeCard(root: string, card: string) {
    await fields(root)
      .locator('input[autocomplete="cc-number"]')
      .fill(card.replace(/(\d{4})(?=\d)/g, '$1 '));
    await fields(root).locator('input[autocomplete="cc-exp"]').fill('12/34');
    await fields(root).locator('input[autocomplete="cc-csc"]').fill('123');
  }
  const status = () =>
    page
      .waitForFunction(() => {
        const text = (
          globalThis as unknown as { document: { getElementById(id: string): { textContent: string } } }
        ).document.getElementById('status').textContent;
        return /Order paid|Payment failed|Refunded|Card saved/.test(text) ? text : false;
      })
      .then((h) => h.jsonValue() as Promise<string>);

  it('renders an accessible card form (labels, card autocomplete) in a frame, and takes a screenshot of it', async () => {
    await openShop();
    expect(await page.$$('#limepay-checkout input')).toHaveLength(0);
    for (const autocomplete of ['cc-number', 'cc-exp', 'cc-csc']) {
      const input = fields('#limepay-checkout').locator(`input[autocomplete="${autocomplete}"]`);
      const id = await input.getAttribute('id');
      expect(await fields('#limepay-checkout').locator(`label[for="${id}"]`).textContent(), autocomplete).toEqual(
        expect.any(String),
      );
    }
    mkdirSync(LOG_DIR, { recursive: true });
    const shot = await page.locator('#limepay-checkout').screenshot({ path: join(LOG_DIR, 'checkout-form.png') });
    expect(shot.length).toBeGreaterThan(2_000);
    const box = await page.locator('#limepay-checkout iframe').boundingBox();
    expect(box!.width).toBeGreaterThan(200);
    expect(box!.height).toBeGreaterThan(120);
  });

  it('pays with 4242..., then refunds the order', async () => {
    await openShop();
    await typeCard('#limepay-checkout', CARDS.ok);
    await page.click('#place-order');
    expect(await status()).toMatch(/^Order paid: ordr_\S+, transaction tran_/);
    await page.click('#refund');
    await page.waitForFunction(() =>
      /Refunded: rfnd_/.test(
        (
          globalThis as unknown as { document: { getElementById(id: string): { textContent: string } } }
        ).document.getElementById('status').textContent,
      ),
    );
  });

  it('shows the decline of 4000...0002', async () => {
    await openShop();
    await typeCard('#limepay-checkout', CARDS.decline);
    await page.click('#place-order');
    expect(await status()).toMatch(/^Payment failed: /);
  });

  it('runs the 3DS challenge of 4000...3220 in the page, approved, and the order is paid', async () => {
    await openShop();
    await typeCard('#limepay-checkout', CARDS.threeDS);
    await page.click('#place-order');
    const frame = await (await page.waitForSelector('.lp-overlay iframe')).contentFrame();
    await frame!.click('#approve');
    expect(await status()).toMatch(/^Order paid: /);
    expect(await page.$('.lp-overlay')).toBeNull();
  });

  it('declines in the page (docs/decisions.md D-PAY-3): the component calls back with the error and the order stays unpaid', async () => {
    await openShop();
    await typeCard('#limepay-checkout', CARDS.threeDS);
    await page.click('#place-order');
    const frame = await (await page.waitForSelector('.lp-overlay iframe')).contentFrame();
    await frame!.click('#decline');
    expect(await status()).toBe('Payment failed: The card issuer declined the verification');
    expect(await page.getAttribute('body', 'data-last-event')).toBe('limepay_card_3DS_declined');
  });

  it('saves a card for the signed-in customer and reuses it for a second order through L19', async () => {
    await openShop();
    await page.click('#sign-in');
    await fields('#limepay-source').locator('input[autocomplete="cc-number"]').waitFor();
    await typeCard('#limepay-source', CARDS.ok);
    await page.click('#save-card');
    expect(await status()).toMatch(/^Card saved: psrc_/);
    await page.click('#pay-saved');
    await page.waitForFunction(() =>
      /Order paid/.test(
        (
          globalThis as unknown as { document: { getElementById(id: string): { textContent: string } } }
        ).document.getElementById('status').textContent,
      ),
    );
  });
});
