import { z } from 'zod';
import { text } from './common';

export const tokenRequest = z.object({
  username: text().trim().min(1, 'This field may not be blank.').max(150),
  password: text().min(1, 'This field may not be blank.').max(1024),
});
export type TokenRequest = z.infer<typeof tokenRequest>;

export const tokenResponse = z.object({ access: z.string(), refresh: z.string() });
export type TokenResponse = z.infer<typeof tokenResponse>;

export const refreshRequest = z.object({
  refresh: text().min(1, 'This field may not be blank.').max(2000),
});
/** Refresh tokens are rotated: every refresh answers a new pair and the old refresh token is spent. */
export const refreshResponse = tokenResponse;
export type RefreshResponse = z.infer<typeof refreshResponse>;

export const currentUser = z.object({ id: z.string(), username: z.string(), is_staff: z.boolean() });
export type CurrentUser = z.infer<typeof currentUser>;

/** Shorter passwords are refused; the server also refuses common ones and the username itself. */
export const PASSWORD_MIN_LENGTH = 10;

export const usernameField = z
  .string()
  .trim()
  .min(1, 'This field may not be blank.')
  .max(150, 'Ensure this field has no more than 150 characters.')
  .regex(/^[\w.@+-]+$/, 'Enter a valid username: letters, digits and @/./+/-/_ only.');
export const passwordField = z
  .string()
  .min(
    PASSWORD_MIN_LENGTH,
    `This password is too short. It must contain at least ${PASSWORD_MIN_LENGTH} characters.`,
  )
  .max(1024)
  .refine((p) => p.trim() !== '', 'This password is entirely blank.');

export const bootstrapRequest = z.object({ username: usernameField, password: passwordField });
export const createUserRequest = z.object({
  username: usernameField,
  password: passwordField,
  is_staff: z.boolean().optional(),
});

export const bootstrapStatus = z.object({ needs_bootstrap: z.boolean() });
export type BootstrapStatus = z.infer<typeof bootstrapStatus>;

export const AUTH_MESSAGES = {
  badCredentials: 'No active account found with the given credentials',
  tooManyAttempts: 'Too many login attempts. Please wait a minute and try again.',
  bootstrapDone: 'A user already exists. Sign in instead.',
  tokenInvalid: 'Given token not valid for any token type',
  noCredentials: 'Authentication credentials were not provided.',
  passwordCommon: 'This password is too common.',
  passwordIsUsername: 'The password is too similar to the username.',
  usernameTaken: 'A user with that username already exists.',
} as const;
