/**
 * The capture pipeline's bounds (capture-pipeline.ts): how long frames gather before a write, how
 * many one write takes, how much may queue behind a write under way, and how often a paused
 * capture tries the refused write again.
 */

/**
 * How long frames gather before they are written. Each tick has a cost of its own (a transaction,
 * a message to the engine's worker and its wake-up), paid per tick rather than per frame; nobody
 * sees 5 ms in a dashboard.
 */
export const WRITE_EVERY_MS = 5;

/**
 * Frames one tick writes at most (the rest follow in the next turn of the event loop). A tick's
 * batch goes to every live dashboard as one message: past the hub's buffer bound (8 MiB) a
 * dashboard is told to resync instead of receiving it, which a burst (frames that piled up behind
 * a slow write, an import) must not cause. Ticks of a busy tap hold tens of frames.
 */
export const WRITE_LIMIT = 512;

/**
 * Frames (and door records) one tick writes at most while the backlog queued behind a large
 * frame's write is worked off (about 5,000 frames a second at 10 clients).
 */
export const TICK_LIMIT = 100;

/**
 * How much traffic may queue in memory behind a write under way (a large frame's, a tick's on the
 * engine's worker, or the worker's start): past either bound, frames are forwarded but not stored,
 * and counted (`fellBehind` in GET /api/capture), so a write that lags (a slow disk, a starved
 * writer thread) costs capture, never the tap's memory or its clients. About 20 s of 10 busy
 * clients, or 256 MiB of text.
 */
export const QUEUE_LIMITS = { frames: 100_000, chars: 256 * 1024 * 1024 };

/** How often a paused capture tries the write the store refused again. */
export const RETRY_MS = 2000;
