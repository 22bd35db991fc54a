// Development pages for the person at this machine (/dev/outbox, /demo/): they show e-mails and sign order data,
// so they answer only a request made here, directly, to a name of this machine.
import type { Context } from 'koa';

/** Headers a proxy adds: through one, every visitor's connection comes from the proxy's (local) address. */
const FORWARDING = /^(?:forwarded|via|x-real-ip|x-forwarded-.*)$/;

const isLoopbackAddress = (address: string) => address === '::1' || /^(?:::ffff:)?127\./.test(address);

/**
 * The names that mean this machine, and the configured BASE_URL's. A page of another site can reach a local port
 * by DNS rebinding, but its requests still carry its own name in Host.
 */
export function isLocalHost(host: string, baseUrl: string): boolean {
  let hostname: string;
  try {
    const url = new URL(`http://${host}`);
    if (url.username || url.password || url.pathname !== '/') return false;
    hostname = url.hostname;
  } catch {
    return false;
  }
  return (
    hostname === 'localhost' ||
    hostname.endsWith('.localhost') ||
    hostname === '[::1]' ||
    /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(hostname) ||
    hostname === new URL(baseUrl).hostname
  );
}

/** From this machine's loopback, not through a proxy (whatever TRUST_PROXY says), to a local name. */
export function isLoopbackRequest(ctx: Context, baseUrl: string): boolean {
  if (!isLoopbackAddress(ctx.req.socket.remoteAddress ?? '')) return false;
  if (Object.keys(ctx.req.headers).some((name) => FORWARDING.test(name))) return false;
  return isLocalHost(ctx.req.headers.host ?? '', baseUrl);
}
