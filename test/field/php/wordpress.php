<?php
/**
 * WordPress's own HTTP API (WP_Http on the Requests library, cURL or fsockopen transport), loaded
 * from a WordPress install without a database: what the WooCommerce plugin's Limepay_API::request
 * calls. The shop's options come from a filter; the legacy host names are routed to the field
 * run's TLS terminator.
 */
define('ABSPATH', rtrim(getenv('WORDPRESS_DIR') ?: '/usr/share/wordpress', '/') . '/');
define('WPINC', 'wp-includes');
define('WP_DEBUG', false);
foreach (['version', 'load', 'class-wp-error', 'plugin', 'functions', 'formatting', 'kses', 'http', 'class-wp-http',
  'class-wp-http-streams', 'class-wp-http-curl', 'class-wp-http-proxy', 'class-wp-http-cookie', 'class-wp-http-encoding',
  'class-wp-http-response', 'class-wp-http-requests-response', 'class-wp-http-requests-hooks'] as $file)
  require_once ABSPATH . WPINC . "/$file.php";

if (!function_exists('__')) { function __($text, $domain = 'default') { return $text; } }
if (!function_exists('get_bloginfo')) { function get_bloginfo($show = '') { global $wp_version; return $show === 'version' ? $wp_version : 'https://shop.example'; } }
add_filter('pre_option', fn($pre, $option) => ['blog_charset' => 'UTF-8', 'siteurl' => 'https://shop.example', 'home' => 'https://shop.example'][$option] ?? '', 10, 2);

// The legacy host names resolve to the operator's TLS terminator in front of the gateway: the URL's
// host and port are replaced as Requests sends it (WordPress's fsockopen transport cannot tunnel
// through a proxy), and the terminator's certificate is trusted.
add_action('requests-requests.before_request', function (&$url, &$headers, &$data, &$type, &$options) {
  $u = parse_url($url);
  $url = getenv('FIELD_TLS') . $u['path'] . (isset($u['query']) ? '?' . $u['query'] : '');
  // the chain is still verified against the terminator's certificate; the name is now an address
  $options['verifyname'] = false;
  // the transport under test: WordPress takes cURL when PHP has it, fsockopen otherwise
  if (getenv('FIELD_WP_TRANSPORT') === 'fsockopen') $options['transport'] = 'Requests_Transport_fsockopen';
}, 10, 5);
add_filter('http_request_args', function ($args) {
  $args['sslcertificates'] = getenv('FIELD_CERT');
  // wp_safe_remote_post resolves the host itself to refuse local addresses: here the terminator is local
  $args['reject_unsafe_urls'] = false;
  return $args;
});

/** Every call the plugin made: method, path, status. */
$GLOBALS['field_calls'] = [];
add_action('http_api_debug', function ($response, $context, $class, $args, $url) {
  $GLOBALS['field_calls'][] = $args['method'] . ' ' . parse_url($url, PHP_URL_PATH) . ' -> ' . (is_wp_error($response) ? $response->get_error_message() : $response['response']['code']);
}, 10, 5);
