/**
 * The checkout component as the deployed WooCommerce plugin's page script uses it, in headless
 * Chromium, across origins: the shop (test/helpers/woo-shop.ts, written from the plugin's public
 * source) on http://localhost:<port>, the component and its card fields on the gateway's
 * http://127.0.0.1:<port>, the gateway started with only the shop's origin allowed. Pay in full, 3DS
 * approved, declined and cancelled, a declined card, a saved card (the subscription flow, then chosen
 * in the checkout), pay later, and the shop's server never receiving card data. Each step leaves a
 * screenshot in .test-logs/checkout/.
 */
import type { Browser, FrameLocator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CARD_FIELDS_BUDGET_BYTES, CARD_FIELDS_PAGE } from '../../src/sandbox/checkout/fields.js';
import { browserMissing } from '../helpers/browser.js';
import { expectNoCardData, launchBrowser, screenshots, typeCard } from '../helpers/checkout-browser.js';
import { spawnGateway } from '../helpers/gateway.js';
import { CARDS, KEYS } from '../helpers/sandbox.js';
import { WooShop, type PageOptions } from '../helpers/woo-shop.js';

const screenshot = screenshots('checkout');

describe('the card fields page', () => {
  it(`is under its budget of ${CARD_FIELDS_BUDGET_BYTES} bytes and names no form field`, () => {
    expect(Buffer.byteLength(CARD_FIELDS_PAGE)).toBeLessThan(CARD_FIELDS_BUDGET_BYTES);
    // inputs without a name are never submitted with any form, even the frame's own
    expect(CARD_FIELDS_PAGE).not.toMatch(/<input type="text"[^>]* name=/);
  });
});

describe('CORS and credentials on the browser endpoints, through the gateway', () => {
  const shop = new WooShop(() => gw.url);
  let gw: Awaited<ReturnType<typeof spawnGateway>>;
  beforeAll(async () => {
    await shop.listen();
    gw = await spawnGateway(['--allowed-origins', shop.url]);
  }, 30_000);
  afterAll(async () => {
    await gw?.stop();
    await shop.close();
  });

  const preflight = (path: string, origin: string) =>
    fetch(`${gw.url}${path}`, {
      method: 'OPTIONS',
      headers: {
        origin,
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'authorization,content-type',
      },
    });

  it('answers a preflight from an allowed origin, on sandbox instruments and current API paths', async () => {
    for (const path of ['/sandbox/card-tokens', '/sandbox/card-sources', '/payplans/offer', '/tokens']) {
      const res = await preflight(path, shop.url);
      expect(res.status, path).toBe(204);
      expect(res.headers.get('access-control-allow-origin'), path).toBe(shop.url);
      expect(res.headers.get('access-control-allow-headers'), path).toMatch(/authorization/);
      expect(res.headers.get('access-control-allow-credentials'), path).toBeNull();
    }
  });

  it('refuses a preflight from an origin the configuration does not allow', async () => {
    const res = await preflight('/sandbox/card-tokens', 'http://evil.example');
    expect(res.status).toBe(403);
    expect(res.headers.get('access-control-allow-origin')).toBeNull();
  });

  it('takes a public key from a page and refuses a secret key from one (current and legacy forms)', async () => {
    const post = (headers: Record<string, string>) =>
      fetch(`${gw.url}/sandbox/card-tokens`, {
        method: 'POST',
        headers: { origin: shop.url, 'content-type': 'application/json', ...headers },
        body: JSON.stringify({ cardNumber: CARDS.ok }),
      });
    const ok = await post({ authorization: `Bearer ${KEYS.soloPk}` });
    expect(ok.status).toBe(200);
    expect(ok.headers.get('access-control-allow-origin')).toBe(shop.url);
    const secrets: Record<string, string>[] = [
      { authorization: `Bearer ${KEYS.soloSk}` },
      { 'Limepay-SecretKey': KEYS.soloSk },
    ];
    for (const headers of secrets) {
      const res = await post(headers);
      expect(res.status).toBe(403);
      expect(((await res.json()) as { message: string; detail: string }).detail).toMatch(
        /web page may send only a public key/,
      );
    }
  });

  it('lets only the allowed origin frame the card fields and the 3DS page', async () => {
    const res = await fetch(`${gw.url}/sandbox/card-fields?mode=checkout`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-security-policy')).toBe(`frame-ancestors 'self' ${shop.url}`);
  });
});

describe.skipIf(browserMissing)('the WooCommerce page script on a shop of its own origin, in headless Chromium', () => {
  const shop = new WooShop(() => gw.url);
  let gw: Awaited<ReturnType<typeof spawnGateway>>;
  let browser: Browser;
  let page: Page;
  let consoleErrors: string[] = [];
  beforeAll(async () => {
    await shop.listen();
    gw = await spawnGateway(['--allowed-origins', shop.url]);
    browser = await launchBrowser();
  }, 30_000);
  afterAll(async () => {
    await browser?.close();
    await gw?.stop();
    await shop.close();
  });

  async function open(options: PageOptions = {}): Promise<FrameLocator> {
    page = await browser.newPage({ viewport: { width: 720, height: 900 } });
    consoleErrors = [];
    page.on('console', (m) => {
      if (m.type() === 'error') consoleErrors.push(m.text());
    });
    const query = new URLSearchParams({
      option: options.option ?? '0',
      type: options.paymentType ?? 'paycard',
      ...(options.loggedIn ? { login: '1' } : {}),
      ...(options.sourceOnly ? { source: '1' } : {}),
    });
    const res = await page.goto(`${shop.url}/checkout?${query.toString()}`);
    expect(res?.status()).toBe(200);
    const fields = page.frameLocator('#limepay-placeholder iframe');
    await fields.locator('#number').waitFor();
    return fields;
  }
  const shot = (name: string) => screenshot(page, name);
  const placeOrder = () => page.click('#place_order');
  const received = async () => {
    await page.waitForURL(/\/order-received\/\d+$/);
    return page.textContent('#order');
  };
  const notice = async () => (await page.waitForSelector('#notices .woocommerce-error')).textContent();
  const lastPay = () => [...shop.calls].reverse().find((c) => /^orders\/.+\/pay$/.test(c.path))!;

  it('renders the card fields in a frame from the gateway, none in the shop page, with both payment choices', async () => {
    const fields = await open();
    expect(await page.$$('input[autocomplete^="cc-"]')).toHaveLength(0);
    const src = await page.getAttribute('#limepay-placeholder iframe', 'src');
    expect(new URL(src!).origin).toBe(gw.url);
    expect(await fields.locator('#choice').isVisible()).toBe(true);
    expect(await fields.locator('#lp-full').isChecked()).toBe(true);
    await shot('01-checkout-form');
  });

  it('pays with 4242 and lands on the order-received page', async () => {
    const fields = await open();
    await typeCard(fields, CARDS.ok);
    await shot('02-card-4242');
    await placeOrder();
    expect(await received()).toMatch(/^ordr_/);
    expect(lastPay()).toMatchObject({
      status: 200,
      body: { transactionId: expect.stringMatching(/^tran_/), type: 'paycard' },
    });
    await shot('03-paid-4242');
  });

  it("runs the 3DS challenge of 4000...3220 on an issuer page, approved: the order is paid although the plugin's handler throws", async () => {
    const fields = await open();
    await typeCard(fields, CARDS.threeDS);
    await placeOrder();
    const issuer = page.frameLocator('.lp-overlay iframe');
    await issuer.locator('#approve').waitFor();
    expect(await issuer.locator('h1').textContent()).toMatch(/verify your payment/);
    expect(await issuer.locator('#amount').textContent()).toBe('25.00 AUD');
    expect(await issuer.locator('#merchant').textContent()).toMatch(/\S/);
    await shot('04-3ds-challenge');
    // the plugin's eventHandler calls this.scrollIntoViewLimepay(): reported, and the challenge still opened
    expect(consoleErrors.join('\n')).toMatch(/the merchant's eventHandler threw; the checkout goes on/);
    expect(
      await page.evaluate(
        () => (globalThis as unknown as { shopSeen: { handlerThis: boolean[] } }).shopSeen.handlerThis,
      ),
    ).not.toContain(false);
    await issuer.locator('#approve').click();
    expect(await received()).toMatch(/^ordr_/);
    expect(lastPay()).toMatchObject({ status: 200 });
    await shot('05-3ds-approved-paid');
  });

  it('3DS declined: the shop shows the failure and the order stays unpaid', async () => {
    const fields = await open();
    await typeCard(fields, CARDS.threeDS);
    await placeOrder();
    await page.frameLocator('.lp-overlay iframe').locator('#decline').click();
    expect(await notice()).toBe('The card issuer declined the verification');
    expect(await page.$('.lp-overlay')).toBeNull();
    expect(lastPay().status).toBe(403);
    await shot('06-3ds-declined');
  });

  it('3DS cancelled returns control to the shop, which can then be paid', async () => {
    const fields = await open();
    await typeCard(fields, CARDS.threeDS);
    await placeOrder();
    await page.frameLocator('.lp-overlay iframe').locator('#cancel').click();
    expect(await notice()).toBe('The verification was cancelled');
    expect(await page.$('.lp-overlay')).toBeNull();
    await shot('07-3ds-cancelled');
    await typeCard(fields, CARDS.ok);
    await placeOrder();
    expect(await received()).toMatch(/^ordr_/);
  });

  it('shows the decline of 4000...0002 from the shop server', async () => {
    const fields = await open();
    await typeCard(fields, CARDS.decline);
    await placeOrder();
    expect(await notice()).toMatch(/declined|do_not_honor|not honou?r/i);
    expect(lastPay().status).toBe(400);
    await shot('08-declined');
  });

  it('reports an invalid card through the errorHandler, without a token or a request to the shop', async () => {
    const fields = await open();
    const before = shop.requests.length;
    await fields.locator('#number').fill('4242 4242 4242 4241');
    await placeOrder();
    expect(await notice()).toBe('Enter a valid card number');
    expect(await fields.locator('#err').textContent()).toBe('Enter a valid card number');
    expect(shop.requests.length).toBe(before);
    expect(consoleErrors.join('\n')).toMatch(/the merchant's errorHandler threw/);
    await shot('09-invalid-card');
  });

  it('saves a card for a logged-in shopper (subscription: createPaymentSource, then L19), then offers it in the checkout', async () => {
    let fields = await open({ sourceOnly: true, loggedIn: true });
    await typeCard(fields, CARDS.ok);
    await shot('10-save-card');
    await placeOrder();
    expect(await received()).toMatch(/^ordr_/);
    expect(shop.calls.some((c) => c.path === 'payments/saved-card' && c.status === 201)).toBe(true);

    fields = await open({ option: 'paycard', loggedIn: true });
    const saved = fields.locator('input[name="lp-card"][value^="psrc_"]').first();
    await saved.waitFor();
    await saved.check();
    await fields.locator('#card').waitFor({ state: 'hidden' });
    await shot('11-saved-card-chosen');
    await placeOrder();
    expect(await received()).toMatch(/^ordr_/);
    expect(lastPay()).toMatchObject({ status: 200, body: { type: 'paycard' } });
  });

  it('pays later when the shop offers only split payment: a pay plan pays the order', async () => {
    const fields = await open({ option: 'payplan', loggedIn: true });
    expect(await fields.locator('#lp-later').isChecked()).toBe(true);
    expect(await fields.locator('#lp-full').isVisible()).toBe(false);
    expect(await fields.locator('#plan').textContent()).toContain('4 payments of about 6.25 AUD');
    await typeCard(fields, CARDS.ok);
    await shot('12-pay-later');
    await placeOrder();
    expect(await received()).toMatch(/^ordr_/);
    expect(lastPay()).toMatchObject({ status: 200, body: { type: 'payplan' } });
    // the transaction names its plan, as the .NET SDK's transactionPayType reads it (L6)
    const tx = await fetch(`${gw.url}/transactions/${lastPay().body.transactionId}`, {
      headers: { 'Limepay-SecretKey': KEYS.soloSk },
    });
    expect(((await tx.json()) as { transactionPayType: unknown }).transactionPayType).toEqual({
      PayPlanId: expect.stringMatching(/^ppln_/),
    });
    await shot('13-pay-later-paid');
  });

  it('preselects pay later for a shopper who chose it before (payment_type payplan), and needs a customer for it', async () => {
    let fields = await open({ paymentType: 'payplan', loggedIn: true });
    expect(await fields.locator('#lp-later').isChecked()).toBe(true);
    expect(await fields.locator('#lp-full').isVisible()).toBe(true);
    fields = await open({ paymentType: 'payplan' });
    expect(await fields.locator('#lp-later').isDisabled()).toBe(true);
    expect(await fields.locator('#lp-full').isChecked()).toBe(true);
    await shot('14-pay-later-needs-sign-in');
  });

  it('no request reaching the shop server carried a card number, the expiry or the CVC', () => {
    expect(shop.requests.length).toBeGreaterThan(20);
    expectNoCardData(shop.requests);
    // the checkout posts did carry the form and the token: the check looked at the right requests
    const posts = shop.requests.filter((r) => r.url === '/?wc-ajax=checkout');
    expect(posts.length).toBeGreaterThan(5);
    expect(posts.some((r) => /limepay_payment_token=ptkn_/.test(r.body))).toBe(true);
    expect(posts.some((r) => /limepay_payment_source=psrc_/.test(r.body))).toBe(true);
  });
});
