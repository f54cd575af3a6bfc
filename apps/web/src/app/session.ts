/** The session lives in local storage under the spec's keys: `token` (access) and `refresh`. */
export const TOKEN_KEY = 'token';
export const REFRESH_KEY = 'refresh';

type Listener = () => void;
const listeners = new Set<Listener>();

export const session = {
  token: (): string | null => localStorage.getItem(TOKEN_KEY),
  refreshToken: (): string | null => localStorage.getItem(REFRESH_KEY),
  store(access: string, refresh?: string) {
    localStorage.setItem(TOKEN_KEY, access);
    if (refresh) localStorage.setItem(REFRESH_KEY, refresh);
    listeners.forEach((l) => l());
  },
  clear() {
    localStorage.removeItem(TOKEN_KEY);
    localStorage.removeItem(REFRESH_KEY);
    listeners.forEach((l) => l());
  },
  subscribe(l: Listener): () => void {
    listeners.add(l);
    return () => listeners.delete(l);
  },
};
