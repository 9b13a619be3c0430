/** A frame's text as the dashboard shows it in a body view: indented when it is JSON, else as it is. */
export function prettyFrame(raw: string): string {
  try {
    return JSON.stringify(JSON.parse(raw), null, 2);
  } catch {
    return raw;
  }
}
