<?php
/**
 * The WooCommerce plugin's own classes (Limepay, Limepay_API, Limepay_Customer, Limepay_Helper, read
 * from FIELD_PLUGIN) taking payments through the gateway on WordPress's HTTP API. WooCommerce itself
 * (orders, products, the cart, the signed-in user) is stood in for by the classes below; the plugin's
 * methods run as the checkout calls them: process_payment, complete_payment_action, process_refund.
 */
require __DIR__ . '/wordpress.php';
require __DIR__ . '/field.php';
require __DIR__ . '/woo.php';
$GLOBALS['field_payment_method'] = 'limepay';

$plugin = rtrim(getenv('FIELD_PLUGIN'), '/') . '/includes';
foreach (['helper.php', 'limepay-api.php', 'limepay-customer.php', 'traits/limepay-subscriptions.php', 'traits/limepay-order-pay.php', 'woocommerce-limepay.php'] as $file)
  require "$plugin/$file";

// the gateway as the shop's settings make it (the constructor needs all of WooCommerce)
$gateway = field_object('Limepay', ['id' => 'limepay', 'secret_key' => FIELD_SECRET_KEY, 'request_3ds' => true, 'minimum_amount_3ds' => '100']);
Limepay_API::set_secret_key(FIELD_SECRET_KEY);

// the signed-in shopper: create_customer, then signin_customer for the checkout component
$customer = new Limepay_Customer(0);
$customerId = $customer->create_customer(Limepay_Customer::map_customer_data(new WC_Customer()));
field_check("L28 create_customer: $customerId", str_starts_with($customerId, 'cust_'));
field_check('L29 signin_customer: a custom token', strlen((string) Limepay_Customer::signin_customer($customerId)) > 0);

// a virtual product paid with the shopper's saved card: generate_payment_token, create_limepay_order, pay
shop_order(101, 25.00, true);
$_POST = ['limepay_payment_source' => field_browser('/sandbox/card-sources', 'Limepay-SecretKey: ' . FIELD_SECRET_KEY, ['customerId' => $customerId, 'cardNumber' => FIELD_CARD_OK])['paymentSourceId']];
$gateway->order_total = 25.00;
$result = $gateway->process_payment(101);
$paid = WC_Order::$orders[101]['transaction_id'] ?? '';
field_check("process_payment with a saved card: {$result['result']}, transaction $paid", $result['result'] === 'success' && str_starts_with($paid, 'tran_'));

// 150.00 is over minimum_amount_3ds: the 403's paymentActionRequired is kept on the order, then sent back
shop_order(102, 150.00, false);
$_POST = ['limepay_payment_token' => field_card_token(FIELD_CARD_3DS)];
$gateway->order_total = 150.00;
$result = $gateway->process_payment(102);
field_check('process_payment with 3DS: payment_action_required ' . ($result['payment_action_required'] ?? '-'), isset($result['payment_action_required']));
$gateway->complete_payment_action(new WC_Order(102));
$paid3ds = WC_Order::$orders[102]['transaction_id'] ?? '';
field_check("complete_payment_action: transaction $paid3ds", str_starts_with($paid3ds, 'tran_'));

// a declined card: the shopper sees the plugin's message for the errorCode
shop_order(103, 9.00, false);
$_POST = ['limepay_payment_token' => field_card_token(FIELD_CARD_DECLINE)];
$gateway->order_total = 9.00;
try {
  $gateway->process_payment(103);
  field_check('process_payment with a declined card throws', false);
} catch (Exception $e) {
  field_check('process_payment with a declined card: ' . $e->getMessage(), $e->getMessage() === 'Please contact your card issuer');
}

// refunds from the order screen: 10.00 of 25.00, then more than is left
field_check('process_refund 10.00', $gateway->process_refund(101, 10.00, 'changed mind') === true);
try {
  $gateway->process_refund(101, 100.00, 'too much');
  field_check('process_refund beyond the amount throws', false);
} catch (Exception $e) {
  field_check('process_refund beyond the amount: ' . $e->getMessage(), str_contains($e->getMessage(), '[refund_exceeds_amount]'));
}

field_done($GLOBALS['field_calls']);
