import type {
  AccountState,
  AuthResponse,
  ForgotPasswordInput,
  LoginChallenge,
  LoginInput,
  LoginTwoFactorInput,
  MessageAnswer,
  PasswordChangeInput,
  ReferralInvitation,
  ProfileUpdateInput,
  RegisterInput,
  ResetPasswordInput,
  SignedInDevice,
  TwoFactorDisableInput,
  TwoFactorSetup,
  TwoFactorState,
  VerifyEmailInput,
} from "./accounts";
import type { ApiKeyView, CreateApiKeyInput, CreatedApiKey, WebhookEventView } from "./api-keys";
import type { SmsProviderName } from "./constants";
import type { PasskeyAssertionInput, PasskeyCeremony, PasskeyRegisterInput, PasskeyView, StepUpInput, StepUpState } from "./passkeys";
import type {
  RentalDetailResponse,
  RentalEndResponse,
  RentalView,
  RentAutoRenewRequest,
  RentCountryEntry,
  RentExtendOptionsResponse,
  RentExtendRequest,
  RentExtendResponse,
  RentNumberRequest,
  RentNumberResponse,
  RentQuoteRequest,
  RentQuoteResponse,
} from "./rentals";
import type { Ad, DiscountTier, LevelRow, RateSettingsRow, SiteLink } from "./settings";
import type {
  OrderRow,
  SmsAnotherCodeResponse,
  SmsFinishResponse,
  SmsCancelResponse,
  SmsCompareResponse,
  SmsCountryEntry,
  SmsPublicPriceList,
  SmsFavourite,
  SmsFavouritesResponse,
  SmsGetNumberRequest,
  SmsGetNumberResponse,
  SmsGetNumbersResponse,
  SmsHoldTime,
  SmsServiceEntry,
  SmsStatusResponse,
  SmsUseAgainInput,
  SmsUseAgainQuote,
} from "./sms";
import type { PublicStatus } from "./status";
import type { StaticAccountRequest, StaticAccountView, TransferView } from "./transfers";
import type {
  CheckoutStart,
  InvoiceAnswer,
  InvoiceStatusAnswer,
  MerchantCurrency,
  PaymentVerdict,
  PendingCardPayment,
  SquadCallbackAnswer,
  Transaction,
} from "./wallet";

/**
 * The customer web client's contract (issue 29, decision 043): every call web/ makes, keyed "METHOD /path" exactly as
 * the worker's routes declare it (`:name` for a path parameter), with what it sends (`query`, `body`) and the one
 * shape it reads back (`answer`; `text` for a file). Types only: nothing here reaches a bundle.
 *
 * Both sides are held to it at compile time. web/api/client.ts `api(route, ...)` accepts only these keys, fills the
 * path's parameters, and answers `answer`; worker/routes/web-contract.ts checks each entry against the type Hono infers
 * from the worker's route chain (the path and method exist; the server's answer and this `answer` are the same shape;
 * a declared body is what the route validates). A field renamed on either side stops `tsc -b`.
 */
export interface WebApi {
  // Accounts (docs/api.md "Accounts")
  "POST /api/register": { body: RegisterInput; answer: AuthResponse };
  "POST /api/login": { body: LoginInput; answer: AuthResponse | LoginChallenge };
  "POST /api/login/2fa": { body: LoginTwoFactorInput; answer: AuthResponse };
  "POST /api/logout": { answer: MessageAnswer };
  /** The body is the message itself, a JSON string (SPEC 7 "data is a text message"). */
  "PATCH /api/update": { body: ProfileUpdateInput; answer: string };
  /** SPEC 7 "data.data message". */
  "PATCH /api/password": { body: PasswordChangeInput; answer: DataOf<string> };
  "POST /api/forgot-password": { body: ForgotPasswordInput; answer: MessageAnswer };
  "POST /api/reset-password": { body: ResetPasswordInput; answer: MessageAnswer };

  // Account security
  "GET /api/account": { answer: AccountState };
  "POST /api/account/tour-closed": { answer: { tour_closed: true } };
  "POST /api/verify-email": { body: VerifyEmailInput; answer: MessageAnswer };
  "POST /api/verify-email/resend": { answer: MessageAnswer };
  "GET /api/sessions": { answer: DataOf<SignedInDevice[]> };
  "POST /api/sessions/:id/revoke": { answer: SessionsRevoked & { current: boolean } };
  "POST /api/sessions/revoke-all": { answer: SessionsRevoked };
  "GET /api/2fa": { answer: TwoFactorState };
  "POST /api/2fa/setup": { answer: TwoFactorSetup };
  "POST /api/2fa/enable": { body: { code: string }; answer: TwoFactorEnabled };
  "POST /api/2fa/disable": { body: TwoFactorDisableInput; answer: MessageAnswer };

  // Passkeys and step-up (decision 034). A ceremony's options are @simplewebauthn/server's JSON for
  // @simplewebauthn/browser, opaque here (schema/ imports no library); the browser's answers are what the server validates.
  "POST /api/login/passkey/options": { answer: PasskeyCeremony };
  "POST /api/login/passkey/verify": { body: PasskeyAssertionInput; answer: AuthResponse };
  "GET /api/passkeys": { answer: DataOf<PasskeyView[]> };
  "POST /api/passkeys/options": { answer: PasskeyCeremony };
  "POST /api/passkeys": { body: PasskeyRegisterInput; answer: PasskeySaved };
  "PATCH /api/passkeys/:id": { body: { name: string }; answer: PasskeySaved };
  "DELETE /api/passkeys/:id": { answer: MessageAnswer };
  "POST /api/step-up/passkey/options": { answer: PasskeyCeremony };
  "POST /api/step-up": { body: StepUpInput; answer: StepUpDone };

  // Content and settings
  "GET /api/health": { answer: Health };
  "GET /api/links": { answer: SiteLink[] };
  /** SPEC 7 "data.data is a list of ads" (the body's data). */
  "GET /api/ads": { answer: DataOf<Ad[]> };
  "GET /api/tiers": { answer: DataOf<DiscountTier[]> };
  "GET /api/get-rate": { answer: RateSettingsRow[] };
  /** The spec's client sends user_id; the server reads the user from the token. */
  "GET /api/level": { query: { user_id?: string }; answer: LevelRow[] };
  /** SPEC 7 "Referral link as data": the body is the link, a JSON string. */
  "GET /api/ref": { answer: string };
  /** The sign-up page's "who invited you": a first name only, and the reward (issue 28). */
  "GET /api/referral/:code": { answer: ReferralInvitation };
  "GET /api/realtime-token": { answer: RealtimeToken };

  // Wallet
  "GET /api/user-balance": { answer: Balance };
  "GET /api/get-transaction": { answer: Transaction[] };
  "POST /api/initialize-transaction": { body: CheckoutRequest; answer: DataOf<DataOf<CheckoutStart>> };
  /** `{ data: "success" | "failed", message }`, or null while the payment is pending. */
  "POST /api/squad-callback": { body: { transaction_ref: string }; answer: SquadCallbackAnswer };
  "POST /api/verify-payment": { body: { transaction_ref: string }; answer: PaymentVerdict };
  "GET /api/payments/pending": { answer: DataOf<PendingCardPayment[]> };
  "GET /api/now-merchant": { answer: MerchantCurrencies };
  "POST /api/invoice": { body: InvoiceRequest; answer: InvoiceAnswer };
  "GET /api/now-status": { query: { payment_id: string }; answer: InvoiceStatusAnswer };

  // Bank transfers (decision 036)
  "POST /api/transfers": { body: { amount: number }; answer: TransferView };
  "GET /api/transfers/active": { answer: DataOf<TransferView | null> };
  "GET /api/transfers/:ref": { answer: TransferView };
  "GET /api/transfers/static-account": { answer: DataOf<StaticAccountView | null> };
  "POST /api/transfers/static-account": { body: StaticAccountRequest; answer: DataOf<StaticAccountView> };

  // Receive SMS
  "GET /api/sms/countries": { query: { provider: SmsProviderName }; answer: SmsCountryEntry[] };
  /** Keyed by service id (the spec's shape); the screen lists the values. */
  "GET /api/sms/price": { query: { id: string; provider: SmsProviderName }; answer: Record<string, SmsServiceEntry> };
  /** The public price page: the starter tier's prices, whoever asks (issue 28). */
  "GET /api/sms/public-prices": { query: { provider?: SmsProviderName; country?: string }; answer: SmsPublicPriceList };
  "POST /api/sms/get-number": { body: SmsGetNumberRequest; answer: SmsGetNumberResponse };
  "POST /api/sms/get-numbers": { body: SmsGetNumberRequest & { quantity: number }; answer: SmsGetNumbersResponse };
  "GET /api/sms/favourites": { answer: SmsFavouritesResponse };
  "PUT /api/sms/favourites": { body: SmsFavourite & { starred: boolean }; answer: SmsFavouritesResponse };
  "GET /api/sms/compare": { query: { provider: SmsProviderName; service: string }; answer: SmsCompareResponse };
  "GET /api/sms/hold-time": { answer: SmsHoldTime };
  "GET /api/sms/status/:request_id": { answer: SmsStatusResponse };
  "POST /api/sms/cancel": { body: { request_id: string }; answer: SmsCancelResponse };
  "POST /api/sms/another-code": { body: { request_id: string }; answer: SmsAnotherCodeResponse };
  "POST /api/sms/finish": { body: { request_id: string }; answer: SmsFinishResponse };
  /** "Use this number again" (issue 32, decision 047): the confirm step's price and wait, then the new order. */
  "GET /api/sms/use-again/:request_id": { answer: SmsUseAgainQuote };
  "POST /api/sms/use-again": { body: SmsUseAgainInput; answer: SmsGetNumberResponse };
  "GET /api/orders": { answer: DataOf<OrderRow[]> };

  // The public status page (#/status, issue 32): no sign-in, cached at the edge.
  "GET /api/status": { answer: PublicStatus };

  // Rent Number
  "GET /api/rent/country-list": { answer: RentCountryEntry[] };
  "POST /api/rent/countries": { body: RentQuoteRequest; answer: RentQuoteResponse };
  "POST /api/rent-number": { body: RentNumberRequest; answer: RentNumberResponse };
  "GET /api/rentals/:id": { answer: RentalDetailResponse };
  "POST /api/rentals/:id/end": { answer: RentalEndResponse };
  "POST /api/rentals/:id/cancel": { answer: RentalEndResponse };
  "GET /api/rentals/:id/extend-options": { answer: RentExtendOptionsResponse };
  "POST /api/rentals/:id/extend": { body: RentExtendRequest; answer: RentExtendResponse };
  /** Auto-renew (issue 32): on at the price shown for each renewal (409 PRICE_CHANGED with the new one), or off. */
  "POST /api/rentals/:id/auto-renew": { body: RentAutoRenewRequest; answer: { rental: RentalView } };

  // History export (CSV files)
  "GET /api/export/transactions.csv": { query: ExportRange; text: true; answer: string };
  "GET /api/export/orders.csv": { query: ExportRange; text: true; answer: string };

  // Developer API keys (Settings "API")
  "GET /api/keys": { answer: DataOf<ApiKeyView[]> };
  "POST /api/keys": { body: CreateApiKeyInput; answer: CreatedApiKey };
  "POST /api/keys/:id/revoke": { answer: ApiKeyView };
  "GET /api/keys/sandbox": { answer: Balance };
  "POST /api/keys/sandbox/top-up": { body: { amount: number }; answer: Balance };
  "PUT /api/keys/:id/webhook": { body: { url: string | null }; answer: ApiKeyView };
  "GET /api/keys/:id/webhook/events": { answer: DataOf<WebhookEventView[]> };
  "POST /api/keys/:id/webhook/events/:eventId/resend": { answer: WebhookEventView };
}

/**
 * The sandbox tools' one call from the web (web/components/payment/simulate-payment.tsx): the route exists only while
 * the server runs sandbox providers (worker/sandbox/nowpayments.ts), so it is its own map, checked the same way
 * (decision 053).
 */
export interface SandboxApi {
  /** Pays the invoice as NOWPayments would: the simulator marks it and sends the signed IPN to our webhook. */
  "POST /sandbox/nowpayments/:paymentId/status": { body: { payment_status: "finished" }; answer: SandboxPaymentStatus };
}

export interface SandboxPaymentStatus {
  payment_id: string;
  parent_payment_id: string | null;
  payment_status: string;
  /** The status our webhook answered the simulated IPN with. */
  webhook_status: number;
}

/** The answers that wrap their content in `data` (the spec's client reads `response.data.data`). */
export interface DataOf<T> {
  data: T;
}

/** GET /api/user-balance, GET /api/keys/sandbox and its top-up: naira. */
export interface Balance {
  balance: number;
}

export interface SessionsRevoked {
  revoked: number;
}

export interface TwoFactorEnabled {
  message: string;
  /** Shown once: the ten single-use codes for a lost authenticator. */
  recovery_codes: string[];
}

export interface PasskeySaved {
  message: string;
  passkey: PasskeyView;
}

export type StepUpDone = StepUpState & { message: string };

export interface Health {
  status: string;
  /** "sandbox" shows the sandbox tools (the crypto invoice's Simulate payment). */
  providers: string;
}

export interface RealtimeToken {
  token: string;
  /** The room's path on this origin, e.g. /parties/notification-room/<userId>. */
  url: string;
}

/** POST /api/initialize-transaction: the spec's id and email are sent for compatibility and ignored. */
export interface CheckoutRequest {
  id?: string;
  email?: string;
  amount: number;
  currency?: "NGN";
}

export interface MerchantCurrencies {
  currencies: MerchantCurrency[];
}

/** POST /api/invoice: US dollars paid in `pay_currency`; order_id and email are the spec's, ignored. */
export interface InvoiceRequest {
  price_amount: number;
  pay_currency: string;
  order_id?: string;
  email?: string;
  order_description?: string;
}

/** Lagos days, YYYY-MM-DD, both included. */
export interface ExportRange {
  from: string;
  to: string;
}

/** One route of the contract: what it sends and what it answers. */
export type WebRoute = keyof WebApi;
