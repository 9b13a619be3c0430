/**
 * The dashboard API's public face for tools outside apps/proxy (the store benchmark mounts the
 * same routes over its own store).
 */
export { exchangeRoutes } from './routes/exchanges.js';
export { frameRoutes } from './routes/frames.js';
export { apiErrorHandler } from './error-handler.js';
