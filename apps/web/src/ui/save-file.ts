/** Hands bytes to the browser as a downloaded file named `name`. */
export function saveFile(blob: Blob, name: string): void {
  const url = URL.createObjectURL(blob);
  try {
    const a = document.createElement('a');
    a.href = url;
    a.download = name;
    document.body.appendChild(a);
    a.click();
    a.remove();
  } finally {
    // The click has started the download; the URL may go once the event loop moves on.
    setTimeout(() => URL.revokeObjectURL(url), 0);
  }
}
