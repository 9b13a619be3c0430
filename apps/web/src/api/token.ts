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
