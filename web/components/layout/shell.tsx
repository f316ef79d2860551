import { Outlet } from "@tanstack/react-router";
import { RealtimeBridge } from "../../realtime/realtime-bridge";

export default function Shell() {
  return (
    <>
      <RealtimeBridge />
      <Outlet />
    </>
  );
}
