/**
 * The dashboard token arrives once in the URL mcpscope printed (`?token=…`). It is moved to
 * sessionStorage and removed from the address bar, so it does not linger in history or get
 * copied along with a shared link.
 */
const KEY = 'mcpscope.token';

export function takeToken(): string | null {
  const url = new URL(window.location.href);
  const fromUrl = url.searchParams.get('token');
  if (fromUrl) {
    sessionStorage.setItem(KEY, fromUrl);
    url.searchParams.delete('token');
    window.history.replaceState(null, '', url.pathname + url.search + url.hash);
    return fromUrl;
  }
  return sessionStorage.getItem(KEY);
}

/** Keeps a token given by hand (the paste field after a restart) for this tab, as takeToken does. */
export function keepToken(token: string): void {
  sessionStorage.setItem(KEY, token);
}

/**
 * What the user pasted after a restart: the whole URL mcpscope printed, or just its token.
 * `origin` is set when the URL points at another dashboard (another port): the tab must go there.
 */
export function readPastedToken(text: string, here: string): { token: string; origin?: string } | undefined {
  const trimmed = text.trim();
  if (trimmed === '') return undefined;
  if (/^https?:\/\//i.test(trimmed)) {
    let url: URL;
    try {
      url = new URL(trimmed);
    } catch {
      return undefined;
    }
    const token = url.searchParams.get('token');
    if (!token) return undefined;
    return url.origin === new URL(here).origin ? { token } : { token, origin: url.origin };
  }
  return /^[A-Za-z0-9._~-]{16,}$/.test(trimmed) ? { token: trimmed } : undefined;
}
