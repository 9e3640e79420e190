/** The API token: kept in sessionStorage for this tab only, sent as the bearer header. */

const KEY = "shipwise.token";

export function storedToken(): string | null {
  return sessionStorage.getItem(KEY);
}

export function storeToken(token: string): void {
  sessionStorage.setItem(KEY, token);
}

export function forgetToken(): void {
  sessionStorage.removeItem(KEY);
}

/** `#token=sw_…` from the demo banner's link; the fragment never reaches the server. */
export function tokenFromFragment(hash: string): string | null {
  const params = new URLSearchParams(hash.replace(/^#/, ""));
  const token = params.get("token");
  return token && token.trim() ? token.trim() : null;
}
