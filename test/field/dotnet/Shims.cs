// What the SDK takes from Newtonsoft.Json (only for ToJson() and a constructor attribute) and from
// .NET Core 3's HttpClient (PatchAsync), for Mono; the wire goes through DataContractJsonSerializer.
using System;
using System.Net.Http;
using System.Threading.Tasks;
namespace Newtonsoft.Json {
  public class JsonConstructorAttribute : Attribute {}
  public enum Formatting { None, Indented }
  public static class JsonConvert { public static string SerializeObject(object o, Formatting f) { return o.ToString(); } }
}
namespace System.Net.Http {
  public static class PatchShim {
    public static Task<HttpResponseMessage> PatchAsync(this HttpClient client, Uri uri, HttpContent content) {
      return client.SendAsync(new HttpRequestMessage(new HttpMethod("PATCH"), uri) { Content = content });
    }
  }
}
