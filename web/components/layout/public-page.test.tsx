import { cleanup, render, screen } from "@testing-library/react";
import { afterEach, describe, expect, it } from "vitest";
import { PublicPage } from "./public-page";
import { buttonClasses } from "../ui/button";

afterEach(() => {
  cleanup();
  localStorage.clear();
});

describe("public pages know a signed-in visitor (issue 28)", () => {
  it("offers Login to a visitor and Dashboard to a signed-in customer", () => {
    render(<PublicPage title="Developer API reference">x</PublicPage>);
    expect(screen.getByRole("link", { name: "Login" }).getAttribute("href")).toBe("#/login/1");
    cleanup();
    localStorage.setItem("authToken", "t");
    localStorage.setItem("userData", JSON.stringify({ userId: "u1", username: "Ada", userNumber: "0803", userEmail: "a@example.com" }));
    localStorage.setItem("auth", JSON.stringify({ token: "t" }));
    render(<PublicPage title="Developer API reference">x</PublicPage>);
    expect(screen.getByRole("link", { name: "Dashboard" }).getAttribute("href")).toBe("#/dashboard/1");
  });

  it("blue buttons carry a light focus ring in the dark theme", () => {
    expect(buttonClasses("default")).toContain("dark:focus-visible:outline-sky-300");
  });
});
