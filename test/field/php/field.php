<?php
/** What the field runs share: the credentials and cards of the embedded sandbox, the browser's part, the verdicts. */
const FIELD_SECRET_KEY = 'sandbox_sk_solo_secret_key';
const FIELD_PUBLIC_KEY = 'sandbox_pk_solo_public_key';
const FIELD_CARD_OK = '4242424242424242';
const FIELD_CARD_3DS = '4000000000003220';
const FIELD_CARD_DECLINE = '4000000000000002';
$GLOBALS['field_failed'] = false;

function field_check($what, $ok) {
  echo ($ok ? 'ok   ' : 'FAIL ') . $what . "\n";
  if (!$ok) $GLOBALS['field_failed'] = true;
}

/** The checkout component's part, done as the shopper's browser would (the sandbox's card instruments, at the gateway). */
function field_browser($path, $header, $body) {
  $context = stream_context_create(['http' => ['method' => 'POST', 'ignore_errors' => true, 'header' => "Content-Type: application/json\r\n$header\r\n", 'content' => json_encode($body)]]);
  $answer = json_decode(file_get_contents(getenv('FIELD_GATEWAY') . $path, false, $context), true);
  if (!is_array($answer)) throw new Exception("the browser's $path call failed");
  return $answer;
}
function field_card_token($card) {
  return field_browser('/sandbox/card-tokens', 'Limepay-PublicKey: ' . FIELD_PUBLIC_KEY, ['cardNumber' => $card])['paymentTokenId'];
}

/** One of the client's classes with its members set: its constructor takes the shop framework's objects. */
function field_object($class, array $members) {
  $object = (new ReflectionClass($class))->newInstanceWithoutConstructor();
  (function () use ($members) { foreach ($members as $name => $value) $this->$name = $value; })->call($object);
  return $object;
}

/** Prints the calls made and exits 1 if a check failed. */
function field_done(array $calls) {
  foreach ($calls as $call) echo "     $call\n";
  exit($GLOBALS['field_failed'] ? 1 : 0);
}
