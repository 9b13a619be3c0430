import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { ApiError } from '../api/client.js';
import { readOnlyRefusal } from './drive-api.js';
import { DriveReadOnly } from './DriveReadOnly.js';

const MESSAGE = 'This capture is opened read-only (mcpscope open): there is no live server to drive.';

describe('Drive over a capture opened read-only', () => {
  it("takes the server's read_only refusal as the reason, and any other failure as an error", () => {
    expect(readOnlyRefusal(new ApiError(409, 'read_only', MESSAGE))).toBe(MESSAGE);
    expect(readOnlyRefusal(new ApiError(404, 'not_found', 'no such route'))).toBeUndefined();
    expect(readOnlyRefusal(new Error('network down'))).toBeUndefined();
  });

  it('shows the reason as a notice, not as an error', () => {
    const html = renderToStaticMarkup(<DriveReadOnly message={MESSAGE} />);
    expect(html).toContain(MESSAGE);
    expect(html).toContain('data-testid="drive-read-only"');
    expect(html).not.toContain('role="alert"');
    expect(html).not.toContain('replay-error');
  });
});
