/** A copy button that says "Copied" for a moment, so the user knows it worked. */
import { useState } from 'react';
import { copyText } from '../lib/clipboard.js';

export function CopyButton({ text, label = 'Copy' }: { text: string | (() => string); label?: string }) {
  const [done, setDone] = useState<boolean | undefined>();
  return (
    <button
      type="button"
      className="small"
      onClick={async () => {
        setDone(await copyText(typeof text === 'function' ? text() : text));
        setTimeout(() => setDone(undefined), 1200);
      }}
    >
      {done === undefined ? label : done ? 'Copied ✓' : 'Copy failed'}
    </button>
  );
}
