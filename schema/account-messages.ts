/**
 * What the account screens and the server say (spec sections 2, 5 and 8; issue 12), with no zod: the sign-up, login,
 * reset and verification screens show them and the server answers with them. Apart from schema/constants.ts so the
 * dashboard's bundle does not carry the account forms' texts.
 */

/** Fixed answers (spec sections 2 and 8), so the server and the screens say the same thing. */
export const ACCOUNT_MESSAGES = {
  welcome: "Welcome onboard",
  invalidCredentials: "Invalid email or password",
  profileUpdated: "Profile updated successfully!",
  passwordUpdated: "Password updated successfully!",
  forgotSent: "If this email exists, a reset link has been sent.",
  resetDone: "Password reset successful! You can now log in.",
  loggedOut: "You have been logged out.",
  emailTaken: "An account with this email already exists. Log in instead.",
  unknownReferral: "This referral code does not exist. Check it or leave the field empty.",
  wrongOldPassword: "Your old password is not correct.",
} as const;

/** E-mail verification (issue 12): what the guard, the link page and the resend action say. */
export const EMAIL_VERIFY_MESSAGES = {
  required: "Please confirm your e-mail address first: open the link we e-mailed you, or send a new one from Settings.",
  invalidLink: "This verification link is invalid or has expired. Send a new one from Settings.",
  verified: "Your e-mail address is confirmed.",
  alreadyVerified: "Your e-mail address is already confirmed.",
  sent: "We sent a new confirmation link to your e-mail address.",
} as const;

/** The answer to a reset link whose id or token is missing, unknown or expired. */
export const RESET_LINK_INVALID_MESSAGE = "This reset link is invalid or has expired. Please request a new one.";

/** Issue 33: what the signed-in screens say while the account's password fails today's rules (set before they changed). */
export const PASSWORD_CHANGE_REQUIRED_MESSAGE =
  "Your password no longer meets our rules (at least 8 characters, not a common one). Please choose a new one.";
/** Why a tab was sent to the login page (issue 28): answered with the 401 and shown there. */
export const SESSION_ENDED_MESSAGES = {
  blocked: "This account is blocked, so it was signed out. Contact support to ask why.",
  signedOut: "You were signed out on this device (from another device, or after a password change). Please log in again.",
} as const;
