<?php
/**
 * The Magento 2 plugin's own classes (Helper\Api, Helper\Generic, Model\Customer, Model\Transaction, read
 * from FIELD_PLUGIN) taking payments through the gateway on PHP's cURL, which reaches the hard-coded
 * legacy host name through the field run's proxy (`https_proxy`) and trusts its certificate
 * (`curl.cainfo`). Magento itself is stood in for: the configuration, the session's payment action and
 * order, and the values MerchantOrder::buildRequest reads from a quote (decimals as the database gives them).
 */
namespace Magento\Framework\Exception { class LocalizedException extends \Exception { public function __construct($phrase) { parent::__construct((string) $phrase); } } }
namespace Magento\Backend\App\Area { class FrontNameResolver { const AREA_CODE = 'adminhtml'; } }
namespace Limepay\Lpcheckout\Helper { class Logger { public static function log($message) {} } }
namespace {
use Magento\Framework\Exception\LocalizedException;

require __DIR__ . '/field.php';
function __($text) { return $text; }
$plugin = rtrim(getenv('FIELD_PLUGIN'), '/');
foreach (['Helper/Api.php', 'Helper/Generic.php', 'Model/Transaction.php', 'Model/Customer.php'] as $file) require "$plugin/$file";

$config = new class { public function getConfigData($section, $field) { return ['secretkey' => FIELD_SECRET_KEY, 'publishablekey' => FIELD_PUBLIC_KEY][$field]; } };
$api = field_object('Limepay\Lpcheckout\Helper\Api', ['config' => $config]);
$helper = field_object('Limepay\Lpcheckout\Helper\Generic', ['config' => $config, 'appState' => new class { public function getAreaCode() { return 'frontend'; } }]);
$customer = field_object('Limepay\Lpcheckout\Model\Customer', ['api' => $api, 'helper' => $helper, 'config' => $config]);
$paymentAction = new class {
  public $_paymentAction = null;
  public function isPaymentActionRequired() { return !empty($this->_paymentAction); }
  public function setPaymentAction($action) { $this->_paymentAction = $action; }
  public function clearPaymentAction() { $this->_paymentAction = null; }
};
$merchantOrder = new class { public $_merchantOrderId; public function clearOrder() { $this->_merchantOrderId = null; } };
$transaction = field_object('Limepay\Lpcheckout\Model\Transaction', ['api' => $api, 'helper' => $helper, 'config' => $config, 'paymentAction' => $paymentAction, 'merchantOrder' => $merchantOrder]);

// Customer::create upserts by the Magento customer id (an int from the session), then signin
$customerId = $customer->create(['customerId' => 42, 'emailAddress' => 'sam@example.com']);
field_check("L28 Customer::create: $customerId", str_starts_with($customerId, 'cust_'));
field_check('L28 the same Magento customer again: the same customer', $customer->create(['customerId' => '42', 'emailAddress' => 'sam@example.com']) === $customerId);
field_check('L29 Customer::signin: a custom token', is_string($customer->signin($customerId)['customToken'] ?? null));

/** MerchantOrder::buildRequest for a guest's order of one product, with Magento's decimal strings. */
function build_request($helper, $incrementId, $grandTotal) {
  $address = ['city' => 'Melbourne', 'country' => 'AU', 'line1' => '12 Collins St', 'line2' => '', 'postalCode' => '3000', 'state' => 'Victoria'];
  return [
    'internalOrderId' => strval($incrementId),
    'paymentAmount' => ['amount' => $helper->convertToCents($grandTotal), 'currency' => 'AUD'],
    'customerEmail' => '',
    'items' => [['description' => 'Fusion Backpack', 'sku' => '24-MB02', 'amount' => $helper->convertToCents('59.0000'), 'currency' => 'AUD', 'quantity' => '1.0000',
      'imageUrl' => 'https://magento.example/media/catalog/product/cache/1/small_image/mb02.jpg']],
    'description' => '1 item(s)',
    'discount' => ['amount' => $helper->convertToCents('0.0000' * -1)],
    'billing' => ['address' => $address, 'phone' => '+61 3 9000 0000', 'name' => 'Sam Citizen'],
    'shipping' => ['amount' => $helper->convertToCents('10.0000'), 'address' => $address, 'carrier' => 'Flat Rate - Fixed', 'phone' => '+61 3 9000 0000', 'name' => 'Sam Citizen'],
  ];
}
/** MerchantOrder::create: the order's merchantOrderId kept for the pay call. */
function create_order($api, $helper, $merchantOrder, $incrementId, $grandTotal) {
  $answer = $api->createOrder(build_request($helper, $incrementId, $grandTotal));
  field_check("L1 createOrder $incrementId: HTTP {$answer['httpStatusCode']}", $answer['httpStatusCode'] == 200 && str_starts_with($answer['data']['merchantOrderId'] ?? '', 'ordr_'));
  $merchantOrder->_merchantOrderId = $answer['data']['merchantOrderId'] ?? null;
}

create_order($api, $helper, $merchantOrder, '000000101', '69.0000');
$paid = $transaction->create(field_card_token(FIELD_CARD_OK), false);
field_check("L4 Transaction::create: {$paid['transactionId']}", str_starts_with($paid['transactionId'], 'tran_'));

// a 3DS card: the 403 becomes "Payment Action required::{json}", the storefront completes it and posts the action back
create_order($api, $helper, $merchantOrder, '000000102', '300.0000');
$token = field_card_token(FIELD_CARD_3DS);
$orderId = $merchantOrder->_merchantOrderId;
try {
  $transaction->create($token, true);
  field_check('L4 Transaction::create with 3DS throws for the payment action', false);
} catch (LocalizedException $e) {
  field_check('L4 Transaction::create with 3DS: ' . $e->getMessage(), str_starts_with($e->getMessage(), 'Payment Action required::{"threeDSAuthorisationId"'));
  $paymentAction->_paymentAction = json_decode(substr($e->getMessage(), strlen('Payment Action required::')), true);
}
$merchantOrder->_merchantOrderId = $orderId;
$completed = $transaction->create($token, true);
field_check("L4 Transaction::create after the challenge: {$completed['transactionId']}", str_starts_with($completed['transactionId'], 'tran_'));

create_order($api, $helper, $merchantOrder, '000000103', '9.0000');
try {
  $transaction->create(field_card_token(FIELD_CARD_DECLINE), false);
  field_check('L4 a declined card throws', false);
} catch (LocalizedException $e) {
  field_check('L4 a declined card: ' . $e->getMessage(), $e->getMessage() === 'Please contact your card issuer');
}

$transaction->refund($paid['transactionId'], '20.0000', 'AUD');
field_check('L7 Transaction::refund 20.00', true);
try {
  $transaction->refund($paid['transactionId'], '100.0000', 'AUD');
  field_check('L7 a refund beyond the amount throws', false);
} catch (LocalizedException $e) {
  field_check('L7 a refund beyond the amount: ' . $e->getMessage(), $e->getMessage() === 'The refund exceeds the refundable amount');
}
field_done([]);
}
