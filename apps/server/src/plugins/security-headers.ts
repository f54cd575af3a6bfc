import type { FastifyInstance } from 'fastify';
import helmet from '@fastify/helmet';

/**
 * Security headers on every response (docs/security.md, "Headers"): a CSP that allows only the app's
 * own scripts (the Vite build has no inline script), framing refused, no MIME sniffing, no referrer.
 * Styles may be inline: Mantine writes its theme into <style> elements and style attributes at run
 * time, and style injection cannot run code. HSTS and upgrade-insecure-requests only when the server
 * sits behind a TLS-terminating proxy (TRUST_PROXY); browsers ignore HSTS over plain HTTP anyway.
 */
export async function registerSecurityHeaders(app: FastifyInstance, behindTlsProxy: boolean): Promise<void> {
  await app.register(helmet, {
    global: true,
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        'default-src': ["'self'"],
        'base-uri': ["'none'"],
        'script-src': ["'self'"],
        'style-src': ["'self'", "'unsafe-inline'"],
        'img-src': ["'self'", 'data:', 'blob:'],
        'font-src': ["'self'", 'data:'],
        'connect-src': ["'self'"],
        'worker-src': ["'self'", 'blob:'],
        'object-src': ["'none'"],
        'frame-ancestors': ["'none'"],
        'form-action': ["'self'"],
        ...(behindTlsProxy ? { 'upgrade-insecure-requests': [] } : {}),
      },
    },
    frameguard: { action: 'deny' },
    referrerPolicy: { policy: 'no-referrer' },
    hsts: behindTlsProxy ? { maxAge: 180 * 24 * 60 * 60, includeSubDomains: false } : false,
    // The app loads nothing cross-origin; COEP would only get in the way of future embeds of our own.
    crossOriginEmbedderPolicy: false,
  });
}
