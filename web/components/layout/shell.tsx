import { Outlet } from "@tanstack/react-router";

export default function Shell() {
  return <Outlet />;
}
