import { z } from "zod";
import { createUpstreamClient, replyMessage, type UpstreamClientOptions } from "../upstream-http";

/**
 * Squad virtual accounts: funding by bank transfer (issue 31, docs/decisions/036). Same host, key and envelope as the
 * card checkout (providers/payments/squad.ts): Bearer secret key, replies { status, success, message, data }.
 *
 * Dynamic (per-payment) accounts, https://docs.squadco.com/Virtual-accounts/dynamic-virtual-account-v2:
 * - POST /virtual-account/initiate-dynamic-virtual-account { amount (kobo), duration (seconds), email, transaction_ref }
 *   → data { account_name, account_number, expected_amount ("100.00", naira), expires_at, transaction_reference, bank,
 *   currency }: an account from the merchant's pool, tied to that amount until expires_at.
 * - GET /virtual-account/get-dynamic-virtual-account-transactions/:transaction_reference → data { count, rows: [{
 *   transaction_status: SUCCESS | EXPIRED | MISMATCH, transaction_reference, created_at, refund }] }: every attempt to
 *   pay that reference. The re-query we make before any credit.
 * Static (per-customer) accounts, https://docs.squadco.com/Virtual-accounts/api-specifications:
 * - POST /virtual-account { customer_identifier, first_name, last_name, middle_name?, mobile_num, dob (mm/dd/yyyy),
 *   email?, bvn, gender ("1" | "2"), address } → data { first_name, last_name, bank_code, virtual_account_number,
 *   customer_identifier, ... }. Squad checks the BVN strictly against names, date of birth, gender and phone.
 * - GET /virtual-account/merchant/transactions/all ?page&perPage&transactionReference&startDate&endDate (MM-DD-YYYY)
 *   &dir → data { count, rows: [{ transaction_reference, virtual_account_number, principal_amount, settled_amount,
 *   fee_charged, transaction_date, transaction_indicator, currency, customer: { customer_identifier } }] }: one
 *   transaction by its reference (the static re-query) or a day's list (the reconciliation).
 * - GET /virtual-account/:customer_identifier → the customer's account (read only: providers:check).
 */

export type DynamicAttemptStatus = "SUCCESS" | "EXPIRED" | "MISMATCH";

export interface DynamicAccount {
  accountNumber: string;
  accountName: string;
  bankName: string;
  /** Squad's expected amount, converted to kobo. */
  expectedKobo: number;
  expiresAt: number;
  transactionReference: string;
}

export interface DynamicAttempt {
  status: DynamicAttemptStatus;
  transactionReference: string;
  createdAt: string;
  refund: boolean | null;
}

export interface StaticAccountInput {
  customerIdentifier: string;
  firstName: string;
  lastName: string;
  middleName?: string;
  mobileNumber: string;
  /** mm/dd/yyyy, as Squad's sample request sends it. */
  dob: string;
  email?: string;
  bvn: string;
  gender: "1" | "2";
  address: string;
}

export interface StaticAccount {
  accountNumber: string;
  customerIdentifier: string;
  accountName: string;
  bankCode: string;
}

export interface VirtualAccountTransaction {
  transactionReference: string;
  accountNumber: string;
  principalKobo: number;
  settledKobo: number;
  /** C = credit (money in). */
  indicator: string;
  currency: string;
  transactionDate: string;
  customerIdentifier: string | null;
}

export interface SquadVirtualAccountClient {
  initiateDynamic(input: { amountKobo: number; durationSeconds: number; email: string; transactionRef: string }): Promise<DynamicAccount>;
  /** Every attempt to pay our reference; [] when Squad has none. */
  requeryDynamic(transactionRef: string): Promise<DynamicAttempt[]>;
  createStaticAccount(input: StaticAccountInput): Promise<StaticAccount>;
  /**
   * The customer's account already open at Squad under our identifier (GET /virtual-account/{customer_identifier},
   * https://docs.squadco.com/Virtual-accounts/api-specifications "Query customer's virtual account"); null when Squad has none.
   */
  findStaticAccount(customerIdentifier: string): Promise<StaticAccount | null>;
  /** One virtual-account transaction by Squad's reference; null when Squad's list has no such transaction. */
  findTransaction(transactionReference: string): Promise<VirtualAccountTransaction | null>;
  /** Every virtual-account transaction of one day (yyyy-mm-dd), all pages. */
  listTransactions(day: string): Promise<VirtualAccountTransaction[]>;
}

const envelope = z.object({
  status: z.union([z.number(), z.string()]).optional(),
  success: z.boolean().optional(),
  message: z.string().optional(),
  data: z.unknown().optional(),
});

const naira = z.union([z.string(), z.number()]);

const dynamicData = z.object({
  account_name: z.string(),
  account_number: z.string().regex(/^\d{10}$/),
  expected_amount: naira,
  expires_at: z.string(),
  transaction_reference: z.string(),
  bank: z.string(),
  currency: z.string().optional(),
});

const requeryData = z.object({
  rows: z.array(
    z.object({
      transaction_status: z.string(),
      transaction_reference: z.string(),
      created_at: z.string(),
      refund: z.boolean().nullable().optional(),
    }),
  ),
});

const staticData = z.object({
  first_name: z.string().nullable().optional(),
  last_name: z.string().nullable().optional(),
  bank_code: z.string().nullable().optional(),
  virtual_account_number: z.string().regex(/^\d{10}$/),
  customer_identifier: z.string(),
});

const transactionRow = z.object({
  transaction_reference: z.string(),
  virtual_account_number: z.string(),
  principal_amount: naira,
  settled_amount: naira.optional(),
  transaction_indicator: z.string().optional(),
  currency: z.string().optional(),
  transaction_date: z.string(),
  customer: z.object({ customer_identifier: z.string() }).nullable().optional(),
});

const transactionsData = z.object({ count: z.number().optional(), rows: z.array(transactionRow) });

/** Squad writes naira as decimal strings ("100.00"); kobo as an integer, exactly (no float rounding surprises). */
export function nairaStringToKobo(value: string | number): number | null {
  const text = String(value).trim();
  const match = /^(\d+)(?:\.(\d{1,2}))?$/.exec(text);
  if (!match) return null;
  const kobo = Number(match[1]) * 100 + Number((match[2] ?? "").padEnd(2, "0"));
  return Number.isSafeInteger(kobo) ? kobo : null;
}

/** yyyy-mm-dd → MM-DD-YYYY, the date form the transactions filter documents ("E.G: 09-19-2022"). */
export function squadDate(day: string): string {
  const [y, m, d] = day.split("-");
  return `${m}-${d}-${y}`;
}

const PAGE_SIZE = 100;
/** A day with more than this many transfers is more than this product sees; the listing stops rather than loops. */
const MAX_PAGES = 50;

export function createSquadVirtualAccountClient(
  opts: Omit<UpstreamClientOptions, "provider" | "headers"> & { secretKey: string },
): SquadVirtualAccountClient {
  const http = createUpstreamClient({ ...opts, provider: "Squad", headers: { authorization: `Bearer ${opts.secretKey}` } });

  /** The envelope's data when Squad says success, else the one refusal mapping (upstream-http.ts unusable). */
  async function call<S extends z.ZodType>(path: string, schema: S, init: Parameters<typeof http.requestJson>[1] = {}): Promise<z.infer<S>> {
    const { status, json } = await http.requestJson(path, init);
    const body = envelope.safeParse(json);
    if (status !== 200 || !body.success || body.data.success === false) throw http.unusable(path, status, replyMessage(json));
    return http.parse(schema, body.data.data, path, status);
  }

  function transaction(row: z.infer<typeof transactionRow>): VirtualAccountTransaction {
    const principal = nairaStringToKobo(row.principal_amount);
    if (principal === null) throw http.fault("bad_reply", 200, "transactions: principal_amount is not naira");
    return {
      transactionReference: row.transaction_reference,
      accountNumber: row.virtual_account_number,
      principalKobo: principal,
      settledKobo: row.settled_amount === undefined ? principal : (nairaStringToKobo(row.settled_amount) ?? principal),
      indicator: (row.transaction_indicator ?? "C").toUpperCase(),
      currency: (row.currency ?? "NGN").toUpperCase(),
      transactionDate: row.transaction_date,
      customerIdentifier: row.customer?.customer_identifier ?? null,
    };
  }

  return {
    async initiateDynamic(input) {
      const data = await call("/virtual-account/initiate-dynamic-virtual-account", dynamicData, {
        method: "POST",
        json: { amount: input.amountKobo, duration: input.durationSeconds, email: input.email, transaction_ref: input.transactionRef },
      });
      const expectedKobo = nairaStringToKobo(data.expected_amount);
      const expiresAt = Date.parse(data.expires_at);
      if (expectedKobo === null || !Number.isFinite(expiresAt)) throw http.fault("bad_reply", 200, "initiate-dynamic: amount or expiry unreadable");
      return {
        accountNumber: data.account_number,
        accountName: data.account_name,
        bankName: data.bank,
        expectedKobo,
        expiresAt,
        transactionReference: data.transaction_reference,
      };
    },

    async requeryDynamic(transactionRef) {
      const path = `/virtual-account/get-dynamic-virtual-account-transactions/${encodeURIComponent(transactionRef)}`;
      const { status, json } = await http.requestJson(path);
      // Squad answers an unknown reference with a 404 "Transaction not found" (the edit endpoint documents it); for the
      // re-query that is simply "no attempt yet".
      if (status === 404) return [];
      const body = envelope.safeParse(json);
      if (status !== 200 || !body.success || body.data.success === false) throw http.unusable(path, status, replyMessage(json));
      const data = http.parse(requeryData, body.data.data, path, status);
      return data.rows.map((row) => ({
        status: normaliseAttempt(row.transaction_status),
        transactionReference: row.transaction_reference,
        createdAt: row.created_at,
        refund: row.refund ?? null,
      })).filter((a): a is DynamicAttempt => a.status !== null);
    },

    async createStaticAccount(input) {
      const data = await call("/virtual-account", staticData, {
        method: "POST",
        json: {
          customer_identifier: input.customerIdentifier,
          first_name: input.firstName,
          last_name: input.lastName,
          ...(input.middleName ? { middle_name: input.middleName } : {}),
          mobile_num: input.mobileNumber,
          dob: input.dob,
          ...(input.email ? { email: input.email } : {}),
          bvn: input.bvn,
          gender: input.gender,
          address: input.address,
        },
      });
      return {
        accountNumber: data.virtual_account_number,
        customerIdentifier: data.customer_identifier,
        accountName: [data.first_name, data.last_name].filter(Boolean).join(" "),
        bankCode: data.bank_code ?? "058",
      };
    },

    async findStaticAccount(customerIdentifier) {
      const path = `/virtual-account/${encodeURIComponent(customerIdentifier)}`;
      const { status, json } = await http.requestJson(path);
      if (status === 404) return null;
      const body = envelope.safeParse(json);
      if (status !== 200 || !body.success || body.data.success === false) throw http.unusable(path, status, replyMessage(json));
      const data = http.parse(staticData, body.data.data, path, status);
      return {
        accountNumber: data.virtual_account_number,
        customerIdentifier: data.customer_identifier,
        accountName: [data.first_name, data.last_name].filter(Boolean).join(" "),
        bankCode: data.bank_code ?? "058",
      };
    },

    async findTransaction(transactionReference) {
      const data = await call("/virtual-account/merchant/transactions/all", transactionsData, {
        query: { transactionReference, page: 1, perPage: 10 },
      });
      const row = data.rows.find((r) => r.transaction_reference === transactionReference);
      return row ? transaction(row) : null;
    },

    async listTransactions(day) {
      const out: VirtualAccountTransaction[] = [];
      for (let page = 1; page <= MAX_PAGES; page++) {
        const data = await call("/virtual-account/merchant/transactions/all", transactionsData, {
          query: { startDate: squadDate(day), endDate: squadDate(day), page, perPage: PAGE_SIZE, dir: "ASC" },
        });
        out.push(...data.rows.map(transaction));
        if (data.rows.length < PAGE_SIZE) break;
      }
      return out;
    },
  };
}

function normaliseAttempt(raw: string): DynamicAttemptStatus | null {
  const s = raw.trim().toUpperCase();
  return s === "SUCCESS" || s === "EXPIRED" || s === "MISMATCH" ? s : null;
}
