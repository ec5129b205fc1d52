// The LimepayApi.Net SDK's own code (compiled from FIELD_PLUGIN with Mono) driven through the gateway,
// as a merchant's code calls it: every resource method the SDK has, on the routes of legacy-api.md section 0.
using System;
using System.Collections.Generic;
using System.Net.Http;
using System.Text;
using System.Threading.Tasks;
using LimepayApi.Net.Models;
using Sdk = LimepayApi.Net.LimepayApi;

class Flow {
  const string SecretKey = "sandbox_sk_solo_secret_key";
  const string PublicKey = "sandbox_pk_solo_public_key";
  static string gateway;
  static bool failed;

  static void Check(string what, bool ok) {
    Console.WriteLine((ok ? "ok   " : "FAIL ") + what);
    if (!ok) failed = true;
  }

  /** The checkout component's part: a payment token for a card, from the sandbox's card instrument. */
  static async Task<string> CardToken(string card) {
    var content = new StringContent("{\"cardNumber\":\"" + card + "\"}", Encoding.UTF8, "application/json");
    content.Headers.Add("Limepay-PublicKey", PublicKey);
    var text = await (await new HttpClient().PostAsync(gateway + "/sandbox/card-tokens", content)).Content.ReadAsStringAsync();
    var at = text.IndexOf("ptkn_");
    if (at < 0) throw new Exception("no card token: " + text);
    return text.Substring(at, text.IndexOf('"', at) - at);
  }

  static CreateOrderRequest Order(string internalOrderId, string orderType = null) {
    var address = new OrderAddress("5 Queen St", "Level 2", "AU", "Brisbane", "4000", "QLD");
    var items = new List<OrderItem> {
      new OrderItem(750, "AUD", "Obey propaganda hat", "SKU1", 1, "https://yourdomain.example/images/hat.jpeg"),
      // a decimal computed from dollars: DataContractJsonSerializer writes 750.00
      new OrderItem(7.50m * 100, "AUD", "Ray-Ban aviator sunglasses", "SKU2", 1, "https://yourdomain.example/images/rb.jpeg"),
    };
    return new CreateOrderRequest(internalOrderId, new Money(1500, "AUD"), "buyer@domain.example", "+61 400 000 000", "Order Description", items,
      new Discount(0), new OrderShipping(1, address, "Carrier", "Name", "+61 400 000 001", "TrackingNumber"),
      new OrderBilling(address, "Name", "+61 400 000 002"), new Metadata("version", "v4.4"), orderType);
  }

  /**
   * Orders.Update, Orders.Cancel and Payments.VoidTransaction deserialize a 2xx body with a null
   * DateTimeFormat: the SDK throws ArgumentNullException (formatString) itself, after the call took
   * effect, whatever the body (as it did against the legacy service, whose answer was the order or the
   * transaction). The effect is checked by reading back.
   */
  static async Task ThrowsAfterEffect<T>(string what, Func<Task<T>> call) {
    try {
      await call();
      Check(what + ": returned", true);
    } catch (ArgumentNullException e) {
      Check(what + ": the SDK's own ArgumentNullException (" + e.ParamName + ") after the call", e.ParamName == "formatString");
    }
  }

  static async Task Run() {
    var sdk = new Sdk(gateway, PublicKey, SecretKey);
    var statement = new CardStatement("JohnDoe", "City");

    var order = await sdk.Orders.Create(Order("Order123", "online"));
    Check("L1 Orders.Create: " + order.MerchantOrderId + ", marketplaceId " + (order.MarketplaceId ?? "null"), order.MerchantOrderId.StartsWith("ordr_") && order.Amount == 1500);
    var got = await sdk.Orders.Get(order.MerchantOrderId);
    Check("L3 Orders.Get: " + got.Items.Count + " items, status " + got.Status, got.MerchantOrderId == order.MerchantOrderId && got.Items.Count == 2);

    var auth = await sdk.Orders.AuthorizeOrder(order.MerchantOrderId, new OrderPayment(await CardToken("4242424242424242"), false, "https://yourdomain.example/", true, false, statement));
    Check("L4 Orders.AuthorizeOrder: " + auth.TransactionId + " " + auth.TransactionStatus, auth.TransactionStatus == "not_captured");
    var captured = await sdk.Payments.CaptureTransaction(auth.TransactionId, new CreateCaptureRequest(1000));
    Check("L9 Payments.CaptureTransaction: " + captured.Status + " " + captured.Amount, captured.Status == "paid" && captured.Amount == 1000 && captured.TransactionPayType?.PayCardId == auth.TransactionId);
    var byId = await sdk.Payments.Get(auth.TransactionId);
    Check("L6 Payments.Get: fee " + byId.Fee + ", refunded " + byId.RefundedAmount, byId.Id == auth.TransactionId && byId.MerchantOrderId == order.MerchantOrderId);
    Check("L6 Payments.Get by the order's id", (await sdk.Payments.Get(order.MerchantOrderId)).Id == auth.TransactionId);

    var refund = await sdk.Refunds.RefundTransaction(new CreateRefundRequest(auth.TransactionId, new Money(400, "AUD")));
    Check("L7 Refunds.RefundTransaction: " + refund.RefundId, refund.RefundId.StartsWith("rfnd_"));
    try {
      await sdk.Refunds.RefundTransaction(new CreateRefundRequest(auth.TransactionId, new Money(5000, "AUD")));
      Check("L7 a refund beyond the amount throws", false);
    } catch (LimepayApi.Net.Exceptions.LimepayApiException e) {
      Check("L7 a refund beyond the amount: " + e.Message, e.Message == "The refund exceeds the refundable amount");
    }

    await ThrowsAfterEffect("L30 Orders.Update", () => sdk.Orders.Update(order.MerchantOrderId, new UpdateOrder("Test_01")));
    Check("L30 the order's internalOrderId is Test_01", (await sdk.Orders.Get(order.MerchantOrderId)).InternalOrderId == "Test_01");

    var order3ds = await sdk.Orders.Create(Order("Order124"));
    var token = await CardToken("4000000000003220");
    var action = await sdk.Orders.Pay3DSOrder(order3ds.MerchantOrderId, new OrderPayment(token, true, "https://yourdomain.example/", false, false, statement));
    Check("L4 Orders.Pay3DSOrder (403): " + action.PaymentActionRequired?.RedirectURL, action.PaymentToken == token && action.PaymentActionRequired?.ThreeDSAuthorisationId != null);
    var paid = await sdk.Orders.PayOrder(order3ds.MerchantOrderId, new OrderPayment(token, true, null, false, false, null, action.PaymentActionRequired));
    Check("L4 Orders.PayOrder after the challenge: " + paid.TransactionStatus + " " + paid.Type + " " + paid.Amount + " " + paid.Currency, paid.TransactionStatus == "paid" && paid.Type == "paycard");

    var order2 = await sdk.Orders.Create(Order("Order125"));
    var auth2 = await sdk.Orders.AuthorizeOrder(order2.MerchantOrderId, new OrderPayment(await CardToken("4242424242424242"), false, null, true));
    await ThrowsAfterEffect("L10 Payments.VoidTransaction", () => sdk.Payments.VoidTransaction(auth2.TransactionId));
    Check("L10 the transaction is cancelled", (await sdk.Payments.Get(auth2.TransactionId)).Status == "cancelled");
    var order3 = await sdk.Orders.Create(Order("Order126"));
    await ThrowsAfterEffect("L12 Orders.Cancel", () => sdk.Orders.Cancel(order3.MerchantOrderId));
    Check("L12 the order is cancelled", (await sdk.Orders.Get(order3.MerchantOrderId)).Status == "cancelled");

    var invoice = await sdk.Orders.CreateInvoice(new CreateOrderInvoiceRequest(true, true, Order("Order127", "online")));
    Check("L31 Orders.CreateInvoice: " + invoice.MerchantOrder?.Type + ", a magic link to " + invoice.MagicLink?.Split('?')[0], invoice.MerchantOrder?.Type == "paybylink" && invoice.MagicLink != null);

    var declined = await sdk.Orders.Create(Order("Order128"));
    try {
      await sdk.Orders.PayOrder(declined.MerchantOrderId, new OrderPayment(await CardToken("4000000000000002")));
      Check("L4 a declined card throws", false);
    } catch (LimepayApi.Net.Exceptions.LimepayApiException e) {
      Check("L4 a declined card: " + e.Message, e.Message == "The payment was declined");
    }
  }

  static int Main(string[] args) {
    gateway = args[0];
    try {
      Run().GetAwaiter().GetResult();
    } catch (Exception e) {
      Check("the flow ran to its end: " + e, false);
    }
    return failed ? 1 : 0;
  }
}
