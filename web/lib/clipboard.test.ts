import { afterEach, describe, expect, it, vi } from "vitest";
import { copyText, writeClipboard } from "./clipboard";

const toast = vi.hoisted(() => ({ success: vi.fn(), error: vi.fn(), info: vi.fn(), warning: vi.fn() }));
vi.mock("./toast", async (original) => ({ ...(await original<typeof import("./toast")>()), toast }));

function stubClipboard(writeText: ((text: string) => Promise<void>) | undefined) {
  Object.defineProperty(navigator, "clipboard", { value: writeText ? { writeText } : undefined, configurable: true });
}
/** jsdom has no execCommand: the legacy path's answer is set per test. */
function stubExecCommand(answer: boolean) {
  const copied: string[] = [];
  Object.defineProperty(document, "execCommand", {
    configurable: true,
    value: vi.fn(() => {
      copied.push((document.activeElement as HTMLTextAreaElement | null)?.value ?? (document.querySelector("textarea")?.value ?? ""));
      return answer;
    }),
  });
  return copied;
}

afterEach(() => {
  vi.clearAllMocks();
  document.body.innerHTML = "";
});

describe("the one clipboard helper", () => {
  it("writes through the async clipboard when the browser allows it", async () => {
    const writeText = vi.fn(async () => undefined);
    stubClipboard(writeText);
    const legacy = stubExecCommand(true);
    await writeClipboard("+15550001111");
    expect(writeText).toHaveBeenCalledWith("+15550001111");
    expect(legacy).toEqual([]);
  });

  it("falls back to a hidden textarea where the async clipboard is refused or missing, and leaves nothing behind", async () => {
    stubClipboard(async () => {
      throw new DOMException("denied", "NotAllowedError");
    });
    const legacy = stubExecCommand(true);
    await writeClipboard("123456");
    stubClipboard(undefined);
    await writeClipboard("654321");
    expect(legacy).toEqual(["123456", "654321"]);
    expect(document.querySelector("textarea")).toBeNull();
  });

  it("rejects when both ways fail, and copyText then says to copy by hand instead of claiming success", async () => {
    stubClipboard(undefined);
    stubExecCommand(false);
    await expect(writeClipboard("x")).rejects.toThrow();
    await copyText("x", "Number copied to clipboard!");
    expect(toast.success).not.toHaveBeenCalled();
    expect(toast.error).toHaveBeenCalledWith("Could not copy: select the text and copy it by hand.");
  });

  it("copyText shows the caller's message once the text is copied", async () => {
    stubClipboard(async () => undefined);
    await copyText("ord_1", "Order ID copied to clipboard!");
    expect(toast.success).toHaveBeenCalledWith("Order ID copied to clipboard!");
  });
});
