import { z } from "zod";

/**
 * Account contracts, shared by the server's validation and the web forms. Messages are the spec's (section 5).
 */

export const sessionUserSchema = z.object({
  userId: z.string(),
  username: z.string(),
  userNumber: z.string(),
  userEmail: z.string(),
});
export type SessionUser = z.infer<typeof sessionUserSchema>;

export const authResponseSchema = z.object({ user: sessionUserSchema, token: z.string() });
export type AuthResponse = z.infer<typeof authResponseSchema>;
