import { cleanup, fireEvent, render, screen } from "@testing-library/react";
import { createMemoryHistory, createRootRoute, createRoute, createRouter, Outlet, RouterProvider } from "@tanstack/react-router";
import { useState } from "react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { loadChunk, lazyScreen, SCREEN_PENDING } from "./screen-loading";

// Issue 29: a screen whose chunk is slow or whose request failed never leaves the previous screen answering under the
// new address, and never costs the customer what they typed (the forgot-password flake and the 375 px drawer).

function EmailForm({ title }: { title: string }) {
  const [email, setEmail] = useState("");
  const [sent, setSent] = useState<string | null>(null);
  return (
    <form
      onSubmit={(e) => {
        e.preventDefault();
        setSent(email || "Email is required");
      }}
    >
      <h1>{title}</h1>
      <label>
        Email
        <input value={email} onChange={(e) => setEmail(e.target.value)} />
      </label>
      <button type="submit">Send</button>
      {sent ? <p role="alert">{sent}</p> : null}
    </form>
  );
}

/** Login (loaded) and forgot-password (its chunk comes from `importer`), under the app's pending options. */
function appWith(importer: () => Promise<{ default: () => React.JSX.Element }>) {
  const root = createRootRoute({ component: Outlet });
  const login = createRoute({ getParentRoute: () => root, path: "/login", component: () => <EmailForm title="Login" /> });
  const forgot = createRoute({ getParentRoute: () => root, path: "/forgot", component: lazyScreen(importer, [10, 10]) });
  const router = createRouter({ routeTree: root.addChildren([login, forgot]), history: createMemoryHistory({ initialEntries: ["/login"] }), ...SCREEN_PENDING });
  render(<RouterProvider router={router} />);
  return router;
}

const forgotModule = { default: () => <EmailForm title="Forgot your password?" /> };

describe("screen loading", () => {
  afterEach(cleanup);

  it("replaces the previous screen with the stand-in at once while the next one's chunk is on its way", async () => {
    let arrive!: (m: typeof forgotModule) => void;
    const router = appWith(() => new Promise((resolve) => (arrive = resolve)));
    await screen.findByRole("heading", { name: "Login" });

    void router.history.push("/forgot");
    // The login form is out of reach before the chunk arrives (React hides it), so nothing typed now can land in it.
    expect(await screen.findByRole("status")).toHaveProperty("textContent", "Loading…");
    expect(screen.queryByRole("heading", { name: "Login" })).toBeNull();
    expect(screen.queryByRole("textbox", { name: "Email" })).toBeNull();

    arrive(forgotModule);
    await screen.findByRole("heading", { name: "Forgot your password?" });
    fireEvent.change(screen.getByRole("textbox", { name: "Email" }), { target: { value: "bola@example.com" } });
    fireEvent.click(screen.getByRole("button", { name: "Send" }));
    expect(screen.getByRole("alert").textContent).toBe("bola@example.com");
  });

  it("fetches a chunk whose request failed again instead of reloading the page, and what is typed afterwards stays", async () => {
    const reload = vi.fn();
    vi.stubGlobal("location", { ...window.location, reload });
    const importer = vi
      .fn<() => Promise<typeof forgotModule>>()
      .mockRejectedValueOnce(new TypeError("Failed to fetch dynamically imported module: /assets/forgot-password.js"))
      .mockResolvedValue(forgotModule);
    const router = appWith(importer);
    await screen.findByRole("heading", { name: "Login" });

    void router.history.push("/forgot");
    await screen.findByRole("heading", { name: "Forgot your password?" });
    expect(importer).toHaveBeenCalledTimes(2);
    fireEvent.change(screen.getByRole("textbox", { name: "Email" }), { target: { value: "bola@example.com" } });
    await new Promise((r) => setTimeout(r, 50));
    fireEvent.click(screen.getByRole("button", { name: "Send" }));
    expect(screen.getByRole("alert").textContent).toBe("bola@example.com");
    expect(reload).not.toHaveBeenCalled();
    vi.unstubAllGlobals();
  });
});

describe("loadChunk", () => {
  it("tries again after each failure with the given pauses, and gives up with the last error", async () => {
    const waits: number[] = [];
    const wait = async (ms: number) => void waits.push(ms);
    const fails = vi.fn().mockRejectedValue(new TypeError("Failed to fetch dynamically imported module"));
    await expect(loadChunk(fails, [1, 2, 3], wait)).rejects.toThrow("Failed to fetch dynamically imported module");
    expect(fails).toHaveBeenCalledTimes(4);
    expect(waits).toEqual([1, 2, 3]);

    const second = vi.fn().mockRejectedValueOnce(new Error("dropped")).mockResolvedValue("chunk");
    await expect(loadChunk(second, [5], wait)).resolves.toBe("chunk");
    expect(second).toHaveBeenCalledTimes(2);
  });
});
