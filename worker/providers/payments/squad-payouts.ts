import { z } from "zod";
import { createUpstreamClient, replyMessage, UpstreamFault, type UpstreamClientOptions } from "../upstream-http";

/**
 * Squad payouts: cash out from our Squad wallet to a customer's bank account (issue 45, docs/decisions/071). Same host,
 * key and envelope as the card checkout and the virtual accounts (Bearer secret key, replies { status, success,
 * message, data }). From Squad's Transfer API, https://squadinc.gitbook.io/squad-api-documentation/transfer-api (moved
 * to https://docs.squadco.com, same endpoints):
 * - POST /payout/account/lookup { bank_code (NIP code), account_number } → data { account_name, account_number }:
 *   "lookup/confirm the account name of the recipient ... before initiating the transfer".
 * - POST /payout/transfer { transaction_reference, amount (kobo, a string), bank_code, account_number, account_name
 *   (the looked-up name), currency_id "NGN", remark } → data { transaction_reference, response_description, amount,
 *   nip_transaction_reference, account_number, account_name, destination_institution_name }. The reference "must be
 *   unique per transfer" and carry our merchant ID first: "SBABCKDY_12345" ("it will throw an error if you don't").
 * - Its codes: "200 Success, 400 Bad request, 422 Unprocessed, 424 Timeout/failed — Should re-query, 404 Not found,
 *   412 reversed". So a 424 (or no answer at all) is never a failure and never sent again: we re-query.
 * - POST /payout/requery { transaction_reference } → the transfer's data with transaction_status ("success, failed,
 *   reversed or pending"); 404 when Squad never received that reference.
 * - GET /payout/list ?page&perPage&dir (ASC | DESC) → every transfer made from the wallet: the reconciliation's list.
 */

/** What one transfer call tells us. `unknown`: Squad's 424, a timeout or a network fault: re-query, never re-send. */
export type PayoutSendOutcome =
  | { outcome: "paid"; nipReference: string | null; description: string }
  | { outcome: "unknown"; detail: string }
  | { outcome: "refused"; status: number; message: string }
  | { outcome: "reversed"; message: string };

/** The sandbox merchant's ID: references must start with it, as Squad requires of a real merchant's. */
export const SANDBOX_SQUAD_MERCHANT_ID = "SBSANDBOX";

export type PayoutStatus = "success" | "failed" | "reversed" | "pending";

export interface PayoutRecord {
  transactionReference: string;
  status: PayoutStatus;
  amountKobo: number | null;
  nipReference: string | null;
  description: string;
}

export interface SquadPayoutClient {
  /** The merchant's prefix every transfer reference must start with ("SBABCKDY_"). */
  readonly merchantId: string;
  /** Our reference for one withdrawal in Squad's documented format: `<merchant id>_<our id>`. */
  reference(ourId: string): string;
  /** The name on an account; null when Squad finds no such account at that bank. */
  lookup(input: { bankCode: string; accountNumber: string }): Promise<{ accountName: string; accountNumber: string } | null>;
  /** Sends one transfer, once. The caller records the reference before calling and never calls twice for it. */
  transfer(input: { reference: string; amountKobo: number; bankCode: string; accountNumber: string; accountName: string; remark: string }): Promise<PayoutSendOutcome>;
  /** The transfer's state at Squad; null when Squad has no transfer with that reference. */
  requery(reference: string): Promise<PayoutRecord | null>;
  /** Every transfer Squad lists (all pages), for the reconciliation. */
  listTransfers(): Promise<PayoutRecord[]>;
}

const envelope = z.object({
  status: z.union([z.number(), z.string()]).optional(),
  success: z.boolean().optional(),
  message: z.string().optional(),
  data: z.unknown().optional(),
});

const lookupData = z.object({ account_name: z.string().min(1), account_number: z.string() });

const transferData = z.object({
  transaction_reference: z.string(),
  response_description: z.string().optional(),
  amount: z.union([z.string(), z.number()]).optional(),
  nip_transaction_reference: z.string().nullable().optional(),
  transaction_status: z.string().optional(),
});

const listData = z.union([z.array(transferData), z.object({ rows: z.array(transferData) }), z.object({ transfers: z.array(transferData) })]);

const PAGE_SIZE = 100;
const MAX_PAGES = 50;

function statusOf(raw: string | undefined): PayoutStatus {
  const s = (raw ?? "").trim().toLowerCase();
  if (s === "success" || s === "successful" || s === "approved") return "success";
  if (s === "failed" || s === "failure") return "failed";
  if (s === "reversed" || s === "reversal") return "reversed";
  return "pending";
}

function kobo(amount: string | number | undefined): number | null {
  if (amount === undefined) return null;
  const n = Number(amount);
  return Number.isSafeInteger(n) && n >= 0 ? n : null;
}

function record(row: z.infer<typeof transferData>): PayoutRecord {
  return {
    transactionReference: row.transaction_reference,
    status: statusOf(row.transaction_status ?? (row.nip_transaction_reference ? "success" : undefined)),
    amountKobo: kobo(row.amount),
    nipReference: row.nip_transaction_reference ?? null,
    description: row.response_description ?? "",
  };
}

export function createSquadPayoutClient(
  opts: Omit<UpstreamClientOptions, "provider" | "headers"> & { secretKey: string; merchantId: string },
): SquadPayoutClient {
  const http = createUpstreamClient({ ...opts, provider: "Squad", headers: { authorization: `Bearer ${opts.secretKey}` } });
  const merchantId = opts.merchantId.trim();

  return {
    merchantId,
    reference: (ourId) => `${merchantId}_${ourId}`,

    async lookup({ bankCode, accountNumber }) {
      const path = "/payout/account/lookup";
      const { status, json } = await http.requestJson(path, { method: "POST", json: { bank_code: bankCode, account_number: accountNumber } });
      const body = envelope.safeParse(json);
      // A number that is no account at that bank: Squad's 404 / 400 / 422 with success false.
      if ((status === 404 || status === 400 || status === 422) && body.success && body.data.success !== true) return null;
      if (status !== 200 || !body.success || body.data.success === false) throw http.unusable(path, status, replyMessage(json));
      const data = http.parse(lookupData, body.data.data, path, status);
      return { accountName: data.account_name.trim(), accountNumber: data.account_number };
    },

    async transfer(input) {
      const path = "/payout/transfer";
      if (!input.reference.startsWith(`${merchantId}_`)) throw new Error(`a payout reference starts with the merchant id (${merchantId}_)`);
      let reply: { status: number; json: unknown };
      try {
        reply = await http.requestJson(path, {
          method: "POST",
          json: {
            transaction_reference: input.reference,
            amount: String(input.amountKobo),
            bank_code: input.bankCode,
            account_number: input.accountNumber,
            account_name: input.accountName,
            currency_id: "NGN",
            remark: input.remark.slice(0, 100),
          },
        });
      } catch (err) {
        // No answer (a timeout, the network, a body that is not JSON): Squad may have the transfer. Re-query it.
        if (err instanceof UpstreamFault) return { outcome: "unknown", detail: err.message };
        throw err;
      }
      const { status, json } = reply;
      const body = envelope.safeParse(json);
      const message = replyMessage(json);
      if (status === 200 && body.success && body.data.success !== false) {
        const data = transferData.safeParse(body.data.data);
        if (!data.success) return { outcome: "unknown", detail: "transfer: 200 with an unreadable body" };
        return { outcome: "paid", nipReference: data.data.nip_transaction_reference ?? null, description: data.data.response_description ?? "" };
      }
      if (status === 424 || status >= 500 || status === 429) return { outcome: "unknown", detail: `transfer: HTTP ${status}: ${message}` };
      if (status === 412) return { outcome: "reversed", message: message || "Reversed" };
      return { outcome: "refused", status, message: message || `HTTP ${status}` };
    },

    async requery(reference) {
      const path = "/payout/requery";
      const { status, json } = await http.requestJson(path, { method: "POST", json: { transaction_reference: reference } });
      if (status === 404) return null;
      const body = envelope.safeParse(json);
      // 412 "reversed" answers the re-query too.
      if (status === 412) return { transactionReference: reference, status: "reversed", amountKobo: null, nipReference: null, description: replyMessage(json) };
      if (status !== 200 || !body.success || body.data.success === false) throw http.unusable(path, status, replyMessage(json));
      return record(http.parse(transferData, body.data.data, path, status));
    },

    async listTransfers() {
      const out: PayoutRecord[] = [];
      for (let page = 1; page <= MAX_PAGES; page++) {
        const path = "/payout/list";
        const { status, json } = await http.requestJson(path, { query: { page, perPage: PAGE_SIZE, dir: "ASC" } });
        const body = envelope.safeParse(json);
        if (status !== 200 || !body.success || body.data.success === false) throw http.unusable(path, status, replyMessage(json));
        const data = http.parse(listData, body.data.data, path, status);
        const rows = Array.isArray(data) ? data : "rows" in data ? data.rows : data.transfers;
        out.push(...rows.map(record));
        if (rows.length < PAGE_SIZE) break;
      }
      return out;
    },
  };
}
