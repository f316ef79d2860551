import { SignJWT, jwtVerify } from "jose";

export const TOKEN_ISSUER = "virtual-numbers";
export type TokenAudience = "api" | "realtime" | "two-factor";

const LIFETIME_SECONDS: Record<TokenAudience, number> = {
  api: 7 * 24 * 3600,
  // Realtime tokens only open a socket; a short life limits what a leaked URL is worth.
  realtime: 5 * 60,
  // The login challenge between the password and the code (its sid is a random id, not a session).
  "two-factor": 5 * 60,
};

export interface TokenClaims {
  userId: string;
  sessionId: string;
}

export async function signToken(secret: Uint8Array, audience: TokenAudience, claims: TokenClaims): Promise<string> {
  return new SignJWT({ sid: claims.sessionId })
    .setProtectedHeader({ alg: "HS256", typ: "JWT" })
    .setSubject(claims.userId)
    .setIssuer(TOKEN_ISSUER)
    .setAudience(audience)
    .setIssuedAt()
    .setExpirationTime(`${LIFETIME_SECONDS[audience]}s`)
    .sign(secret);
}

/** Verifies signature (HS256 only: alg none and others are refused), issuer, audience and expiry. Null when invalid. */
export async function verifyToken(secret: Uint8Array, audience: TokenAudience, token: string): Promise<TokenClaims | null> {
  try {
    const { payload } = await jwtVerify(token, secret, {
      algorithms: ["HS256"],
      issuer: TOKEN_ISSUER,
      audience,
    });
    if (typeof payload.sub !== "string" || typeof payload.sid !== "string") return null;
    return { userId: payload.sub, sessionId: payload.sid };
  } catch {
    return null;
  }
}
