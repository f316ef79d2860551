import type { SmsProviderName } from "../../schema/constants";
import type { SmsActivation, SmsCancelResult, SmsCountry, SmsOffer, SmsPollResult, SmsProvider, UpstreamMoney } from "../providers/sms/types";

/**
 * A scripted SmsProvider for tests of the order's life: each poll takes the next scripted reply (an Error is thrown),
 * and hooks let a test run something in the middle of an upstream call to stage a race deterministically.
 */
export class ScriptedSmsProvider implements SmsProvider {
  readonly calls: string[] = [];
  polls: (SmsPollResult | Error)[] = [];
  /** Reply once the script runs out. */
  afterScript: SmsPollResult = { state: "waiting" };
  buyResult: SmsActivation | Error = { upstreamId: "up-1", number: "15550001111" };
  balanceResult: UpstreamMoney | Error = { amount: 100, currency: "USD" };
  cancelResult: SmsCancelResult | Error = { outcome: "released" };
  /** Runs inside cancel() before it answers (once), e.g. to let a poll tick land mid-cancel. */
  duringCancel: (() => Promise<void>) | null = null;

  constructor(
    readonly name: SmsProviderName = "Swift",
    readonly offers: SmsOffer[] = [{ countryId: "5", serviceId: "wa", name: "WhatsApp", cost: 0.5, currency: "USD", count: 120 }],
    readonly countryList: SmsCountry[] = [{ id: "5", title: "USA" }],
  ) {}

  async countries(): Promise<SmsCountry[]> {
    return this.countryList;
  }
  async services(countryId: string): Promise<SmsOffer[]> {
    return this.offers.filter((o) => o.countryId === countryId);
  }
  async buy(): Promise<SmsActivation> {
    this.calls.push("buy");
    if (this.buyResult instanceof Error) throw this.buyResult;
    return this.buyResult;
  }
  async poll(): Promise<SmsPollResult> {
    this.calls.push("poll");
    const next = this.polls.length > 0 ? this.polls.shift()! : this.afterScript;
    if (next instanceof Error) throw next;
    return next;
  }
  async cancel(): Promise<SmsCancelResult> {
    this.calls.push("cancel");
    const hook = this.duringCancel;
    this.duringCancel = null;
    if (hook) await hook();
    if (this.cancelResult instanceof Error) throw this.cancelResult;
    return this.cancelResult;
  }
  async finish(): Promise<void> {
    this.calls.push("finish");
  }
  async balance(): Promise<UpstreamMoney> {
    this.calls.push("balance");
    if (this.balanceResult instanceof Error) throw this.balanceResult;
    return this.balanceResult;
  }
  /** Set by tests of "request another code" (absent: the provider does not support it). */
  requestAnotherCode?: (upstreamId: string) => Promise<void>;
}
