import { describe, expect, it } from "vitest";
import { publicHttpsProblem } from "./public-address";

// Issue 47's attack list: a push endpoint or a forwarding URL aimed at us or at a network behind us is refused with a
// sentence, whatever spelling the address takes.
describe("the public https check for addresses we POST to on a customer's word", () => {
  it("lets a public https address through", () => {
    for (const url of [
      "https://fcm.googleapis.com/fcm/send/abc:def",
      "https://web.push.apple.com/QGx9",
      "https://updates.push.services.mozilla.com/wpush/v2/gAAA",
      "https://hooks.example.ng/rentals?x=1",
      "https://8.8.8.8/hook",
      "https://[2606:4700:4700::1111]/hook",
    ]) {
      expect(publicHttpsProblem(url, "The URL"), url).toBeNull();
    }
  });

  it("refuses http, other schemes, credentials and what is not a URL", () => {
    expect(publicHttpsProblem("http://hooks.example.ng/x", "The URL")).toBe("The URL must start with https://.");
    expect(publicHttpsProblem("ftp://hooks.example.ng/x", "The URL")).toBe("The URL must start with https://.");
    expect(publicHttpsProblem("javascript:alert(1)", "The URL")).toBe("The URL must start with https://.");
    expect(publicHttpsProblem("https://user:pw@hooks.example.ng/x", "The URL")).toBe("The URL cannot carry a user name or password.");
    expect(publicHttpsProblem("not a url", "The URL")).toBe("The URL is not a URL.");
  });

  it("refuses localhost and private, loopback, link-local and reserved addresses in every spelling", () => {
    for (const url of [
      "https://localhost/x",
      "https://LOCALHOST./x",
      "https://api.localhost/x",
      "https://printer.local/x",
      "https://intranet/x",
      "https://127.0.0.1/x",
      "https://127.1/x", // the URL parser reads it as 127.0.0.1
      "https://2130706433/x", // 127.0.0.1 as one number
      "https://0x7f000001/x",
      "https://0177.0.0.1/x",
      "https://10.0.0.8/x",
      "https://172.16.4.1/x",
      "https://172.31.255.255/x",
      "https://192.168.1.1/x",
      "https://169.254.169.254/latest/meta-data",
      "https://100.64.0.1/x",
      "https://0.0.0.0/x",
      "https://224.0.0.1/x",
      "https://[::1]/x",
      "https://[::]/x",
      "https://[::ffff:127.0.0.1]/x",
      "https://[::ffff:10.0.0.1]/x",
      "https://[fd00::1]/x",
      "https://[fe80::1]/x",
      "https://push.sandbox.invalid/x",
    ]) {
      expect(publicHttpsProblem(url, "The URL"), url).toBe("The URL must be a public address, not localhost or a private network.");
    }
  });

  it("does not mistake a public address that merely starts alike for a private one", () => {
    expect(publicHttpsProblem("https://172.32.0.1/x", "The URL")).toBeNull();
    expect(publicHttpsProblem("https://192.169.0.1/x", "The URL")).toBeNull();
    expect(publicHttpsProblem("https://localhost.example.ng.com/x", "The URL")).toBeNull();
  });
});
