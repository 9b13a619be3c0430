/** Whether a request's Host names this machine: a client from elsewhere (a tunnel) sends another one. */
const LOOPBACK = /^(localhost|127\.\d+\.\d+\.\d+|\[::1\]|\[::ffff:127\.[\d.]+\])(:\d+)?$/i;

/** A Host a tunnel (or any client from elsewhere) delivers: not a loopback name. */
export function isTunnelHost(host: string | undefined): boolean {
  return host !== undefined && !LOOPBACK.test(host);
}
