<?php
/**
 * The official April WooCommerce plugin's own classes (April, April_API, April_Customer, April_Helper,
 * read from FIELD_PLUGIN) taking payments from the sandbox's current face on WordPress's HTTP API: the
 * current generation's deployed client, unchanged. WooCommerce itself is stood in for by the classes
 * below; the plugin's methods run as the checkout calls them: create_customer and signin_customer,
 * process_payment (a saved card, a card with 3DS, a declined card), complete_payment_action,
 * process_refund.
 */
require __DIR__ . '/wordpress.php';
require __DIR__ . '/field.php';

require __DIR__ . '/woo.php';
$GLOBALS['field_payment_method'] = 'april';


$plugin = rtrim(getenv('FIELD_PLUGIN'), '/') . '/includes';
foreach (['helper.php', 'april-api.php', 'april-customer.php', 'traits/april-subscriptions.php', 'traits/april-order-pay.php', 'woocommerce-april.php'] as $file)
  require "$plugin/$file";

/** The checkout component's part in the shopper's browser, at the current face: a card token, a saved card. */
function april_browser($path, $credential, $body) {
  $context = stream_context_create(['http' => ['method' => 'POST', 'ignore_errors' => true, 'header' => "Content-Type: application/json\r\nAuthorization: Bearer $credential\r\n", 'content' => json_encode($body)]]);
  $answer = json_decode(file_get_contents(getenv('FIELD_CURRENT') . $path, false, $context), true);
  if (!is_array($answer)) throw new Exception("the browser's $path call failed");
  return $answer;
}

// the gateway as the shop's settings make it (the constructor needs all of WooCommerce)
$gateway = field_object('April', ['id' => 'april', 'method_name' => 'april', 'secret_key' => FIELD_SECRET_KEY, 'request_3ds' => true, 'minimum_amount_3ds' => '100']);
April_API::set_secret_key(FIELD_SECRET_KEY);

// the signed-in shopper: create_customer (RegisterPluginConsumerCustomer), then signin_customer for the checkout component
$customer = new April_Customer(0);
$customerId = $customer->create_customer(April_Customer::map_customer_data(new WC_Customer()));
field_check("create_customer: $customerId", str_starts_with((string) $customerId, 'cust_'));
$customToken = (string) April_Customer::signin_customer($customerId);
field_check('signin_customer: a custom token', strlen($customToken) > 0);

// a virtual product paid with the shopper's saved card: generate_payment_token, create_april_order, PayByPaymentToken
shop_order(201, 25.00, true);
$_POST = ['april_payment_source' => april_browser('/sandbox/card-sources', $customToken, ['cardNumber' => FIELD_CARD_OK])['paymentSourceId']];
$gateway->order_total = 25.00;
$result = $gateway->process_payment(201);
$paid = WC_Order::$orders[201]['transaction_id'] ?? '';
field_check("process_payment with a saved card: {$result['result']}, transaction $paid", $result['result'] === 'success' && str_starts_with($paid, 'tran_'));

// a card (paymentMethodType Card) over minimum_amount_3ds: the challenge kept on the order, then Confirm3DSComplete
shop_order(202, 150.00, false);
$_POST = ['april_payment_token' => april_browser('/sandbox/card-tokens', FIELD_PUBLIC_KEY, ['cardNumber' => FIELD_CARD_3DS])['paymentTokenId'], 'april_payment_data' => '{"paymentMethodType":"Card"}'];
$gateway->order_total = 150.00;
$result = $gateway->process_payment(202);
field_check('process_payment with 3DS: payment_action_required ' . ($result['payment_action_required'] ?? '-'), isset($result['payment_action_required']));
$gateway->complete_payment_action(new WC_Order(202));
$paid3ds = WC_Order::$orders[202]['transaction_id'] ?? '';
field_check("complete_payment_action: transaction $paid3ds", str_starts_with($paid3ds, 'tran_'));

// a declined card: the shopper sees the plugin's message for the errorCode
shop_order(203, 9.00, false);
$_POST = ['april_payment_token' => april_browser('/sandbox/card-tokens', FIELD_PUBLIC_KEY, ['cardNumber' => FIELD_CARD_DECLINE])['paymentTokenId'], 'april_payment_data' => '{"paymentMethodType":"Card"}'];
$gateway->order_total = 9.00;
try {
  $gateway->process_payment(203);
  field_check('process_payment with a declined card throws', false);
} catch (Exception $e) {
  field_check('process_payment with a declined card: ' . $e->getMessage(), $e->getMessage() === 'Please contact your card issuer');
}

// refunds from the order screen: 10.00 of 25.00, then more than is left
field_check('process_refund 10.00', $gateway->process_refund(201, 10.00, 'changed mind') === true);
try {
  $gateway->process_refund(201, 100.00, 'too much');
  field_check('process_refund beyond the amount throws', false);
} catch (Exception $e) {
  field_check('process_refund beyond the amount: ' . $e->getMessage(), str_contains($e->getMessage(), '[refund_exceeds_amount]'));
}

field_done($GLOBALS['field_calls']);
