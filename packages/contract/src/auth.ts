import { z } from 'zod';

export const tokenRequest = z.object({
  username: z.string().trim().min(1, 'This field may not be blank.').max(150),
  password: z.string().min(1, 'This field may not be blank.').max(1024),
});
export type TokenRequest = z.infer<typeof tokenRequest>;

export const tokenResponse = z.object({ access: z.string(), refresh: z.string() });
export type TokenResponse = z.infer<typeof tokenResponse>;

export const refreshRequest = z.object({ refresh: z.string().min(1, 'This field may not be blank.') });
export const refreshResponse = z.object({ access: z.string() });
export type RefreshResponse = z.infer<typeof refreshResponse>;

export const currentUser = z.object({ id: z.string(), username: z.string(), is_staff: z.boolean() });
export type CurrentUser = z.infer<typeof currentUser>;

export const usernameField = z
  .string()
  .trim()
  .min(1, 'This field may not be blank.')
  .max(150, 'Ensure this field has no more than 150 characters.')
  .regex(/^[\w.@+-]+$/, 'Enter a valid username: letters, digits and @/./+/-/_ only.');
export const passwordField = z
  .string()
  .min(8, 'This password is too short. It must contain at least 8 characters.')
  .max(1024);

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
} as const;
