/**
 * What a request carries once it is authenticated: the signed-in user. A shared type of its own, so
 * feature modules depend on it and not on the auth module that produces it.
 */
export interface AuthUser {
  id: string;
  username: string;
  is_staff: boolean;
}
