<?php
/**
 * WooCommerce stood in for, as the shop plugins' own code reads it: the gateway base class, orders with
 * their items, totals (strings and floats, as WooCommerce returns them) and addresses, products, the
 * signed-in shopper and the cart. Set $GLOBALS['field_payment_method'] to the plugin's gateway id.
 */
class WC_Payment_Gateway {
  public $id;
  public $supports = [];
  public $order_total = 0;
  public function get_order_total() { return $this->order_total; }
  public function get_return_url($order) { return 'https://shop.example/checkout/order-received/' . $order->get_id(); }
}

/** A shop order: `items`, totals as WooCommerce returns them (strings and floats), addresses. */
class WC_Order {
  public static $orders = [];
  private $d;
  public function __construct($id) { $this->d = &self::$orders[$id]; }
  public function get_id() { return $this->d['id']; }
  public function get_items() { return $this->d['items']; }
  public function get_total_discount() { return $this->d['discount']; }
  public function get_total_shipping() { return $this->d['shipping_total']; }
  public function __call($name, $args) {
    if (preg_match('/^get_(shipping|billing)_(.+)$/', $name, $m)) return $this->d[$m[1]][$m[2]] ?? '';
    throw new Exception("WC_Order::$name is not stood in for");
  }
  public function set_transaction_id($id) { $this->d['transaction_id'] = $id; }
  public function get_transaction_id() { return $this->d['transaction_id'] ?? ''; }
  public function add_order_note($note) { $this->d['notes'][] = $note; }
  public function payment_complete() { $this->d['status'] = 'processing'; }
  public function update_meta_data($key, $value) { $this->d['meta'][$key] = $value; }
  public function get_meta($key, $single = true) { return $this->d['meta'][$key] ?? ''; }
  public function save() {}
  public function get_payment_method() { return $GLOBALS['field_payment_method']; }
  public function get_checkout_payment_url($on_checkout = false) { return 'https://shop.example/checkout/order-pay/' . $this->d['id']; }
}
class WC_Product_Stand_In {
  public function __construct(private $sku, private $images) {}
  public function get_gallery_image_ids() { return $this->images; }
  public function get_sku() { return $this->sku; }
}
class WC_Customer {
  public function get_id() { return 5; }
  public function get_billing_first_name() { return 'Jo'; }
  public function get_billing_last_name() { return 'Bloggs'; }
  public function get_email() { return 'jo@example.com'; }
}
function wc_get_product($id) { return $id === 7 ? new WC_Product_Stand_In('HAT-1', [11]) : new WC_Product_Stand_In('', []); }
function wp_get_attachment_url($id) { return 'https://shop.example/wp-content/uploads/hat.jpg'; }
function get_woocommerce_currency() { return 'AUD'; }
function wp_get_current_user() { return new class { public $ID = 5; public $user_email = 'jo@example.com'; public function exists() { return true; } }; }
function wc_clean($value) { return is_scalar($value) ? sanitize_text_field($value) : $value; }
function is_wc_endpoint_url($endpoint) { return false; }
$GLOBALS['woocommerce'] = new class { public $cart; public function __construct() { $this->cart = new class { public function empty_cart() {} }; } };

/** A shop order as get_order_data reads it: a virtual product has no shipping address. */
function shop_order($id, $total, $virtual) {
  $billing = ['city' => 'Sydney', 'country' => 'AU', 'address_1' => '1 George St', 'address_2' => '', 'postcode' => '2000', 'state' => 'NSW', 'first_name' => 'Jo', 'last_name' => 'Bloggs', 'email' => 'jo@example.com', 'phone' => ''];
  WC_Order::$orders[$id] = [
    'id' => $id,
    'items' => [['product_id' => $virtual ? 8 : 7, 'name' => $virtual ? 'E-book – “Café” edition' : 'Hat', 'qty' => 1, 'total' => (string) $total]],
    'discount' => 0.0,
    'shipping_total' => '0.00',
    'shipping' => $virtual ? [] : $billing,
    'billing' => $billing,
  ];
}
