/**
 * Accounts: who the customer is (sign-up, sign-in, sessions and devices, passwords and resets, e-mail verification, two-factor, passkeys and step-up, referrals, account e-mails, the account rows' sweep).
 * This file is the room's one entry point: everything outside worker/services/accounts/ imports the room from here, and a
 * file inside imports its siblings directly (scripts/lint.ts refuses the rest; docs/decisions/041-domain-rooms.md).
 */
export { depositReviewedEmail, keyWithdrawScopeEmail, operatorEmail, passkeyEmail, type Recipient, rentalEndingEmail, rentalRenewalPausedEmail, rentalRenewingEmail, sendAccountEmail, twoFactorEmail, verificationEmail } from "./account-emails";
export { sweepAccountRows } from "./account-sweep";
export { changeOwnPassword, requestPasswordReset, resetPassword, signIn, signInSecondStep, signUp } from "./accounts";
export { describePlace, describeUserAgent, lastNewDeviceAt } from "./devices";
export { completeEmailVerification, createEmailVerification, emailVerificationInsert, requireVerifiedEmail, verificationLink } from "./email-verification";
export { completeRegistration, listPasskeys, ownPasskey, passkeyCount, registrationCeremony, relyingPartyFor, removePasskey, renamePasskey, signInCeremony, stepUpCeremony, verifyAssertion } from "./passkeys";
export { sha256Hex } from "./password-reset";
export { referralInvitation } from "./referral-invitation";
export { referralRewardStatement } from "./referrals";
export { hasSecondFactor } from "./second-factor";
export { type ApiCaller, closeRevokedSockets, deviceFromRequest, LAST_SEEN_EVERY_MS, listLiveSessions, isLiveSessionOf, type LiveSession, liveSessionCountSql, liveSessionIds, loadSessionUser, onlineUserIds, revokeSessions, revokeSessionsStatement, sessionEndReason, sessionUserQuery, type SessionUserRow, type SignedInUser, touchSession, type UserRead, usersSeenSince } from "./sessions";
export { openSignedInSession } from "./sign-in";
export { confirmStepUp, requireConfirmedSecondFactor, requireFreshSecondFactor, requireReauthentication, stepUpState, type StepUpSession } from "./step-up";
export { confirmEnrolment, disableTwoFactor, resetSecondFactorStatements, startEnrolment, totpKey, unusedRecoveryCodeCount, verifySecondFactor } from "./two-factor";
export { closeTour, findUserById, generateReferralCode, toSessionUser, updateProfile } from "./users";
export { type ChatAccount, chatAccount, confirmedInWebApp, liveSessionStamp, passwordStamp } from "./chat-links";
