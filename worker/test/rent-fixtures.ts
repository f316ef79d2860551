import { readSandboxRental, writeSandboxRental, type SandboxRental } from "../sandbox/rent-simulator";

/** Change what the simulated rent upstream holds for one rental (e.g. when its first SMS comes, when it was created). */
export async function patchSandboxRental(d1: D1Database, requestId: string, patch: Partial<SandboxRental>): Promise<void> {
  const current = await readSandboxRental(d1, requestId);
  if (!current) throw new Error(`no sandbox rental ${requestId}`);
  await writeSandboxRental(d1, requestId, { ...current, ...patch });
}
