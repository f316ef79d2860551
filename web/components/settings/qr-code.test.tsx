import { cleanup, render, screen } from "@testing-library/react";
import { encode } from "uqr";
import { afterEach, describe, expect, it } from "vitest";
import { QrCode } from "./qr-code";

afterEach(cleanup);

const URL_FOR_APP = "otpauth://totp/VirtualNum:ada%40example.com?issuer=VirtualNum&secret=JBSWY3DPEHPK3PXP&algorithm=SHA1&digits=6&period=30";

describe("QrCode", () => {
  it("draws the encoder's modules as one SVG path, with a name for screen readers", async () => {
    render(<QrCode value={URL_FOR_APP} label="QR code for your authenticator app" />);
    const svg = await screen.findByRole("img", { name: "QR code for your authenticator app" });
    const modules = encode(URL_FOR_APP, { ecc: "M", border: 2 }).data;
    expect(svg.getAttribute("viewBox")).toBe(`0 0 ${modules.length} ${modules.length}`);
    const dark = modules.flat().filter(Boolean).length;
    const drawn = (svg.querySelector("path")!.getAttribute("d")!.match(/M/g) ?? []).length;
    expect(drawn).toBe(dark);
    // The top-left finder pattern's corner is dark inside the 2-module border.
    expect(svg.querySelector("path")!.getAttribute("d")).toContain("M2 2h1v1h-1z");
  });
});
