import { existsSync } from 'node:fs';
import path from 'node:path';
import Fastify, { LogController, type FastifyInstance } from 'fastify';
import fastifyStatic from '@fastify/static';
import fastifySwagger from '@fastify/swagger';
import fastifySwaggerUi from '@fastify/swagger-ui';
import fastifyWebsocket from '@fastify/websocket';
import fastifyMultipart from '@fastify/multipart';
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import type { AppConfig } from './config';
import type { AppContext } from './context';
import { openDatabase } from './db';
import { newId } from './lib/ids';
import { finishOpenApi } from './lib/openapi-finish';
import { openApiTransform } from './lib/openapi-multipart';
import { createSecretBox } from './lib/secrets';
import { registerAuth } from './plugins/auth';
import { registerErrorHandling } from './plugins/errors';
import { registerTextGuard } from './plugins/text-guard';
import { registerRequestLog } from './plugins/request-log';
import { registerGracefulClose } from './plugins/graceful-close';
import { registerSecurityHeaders } from './plugins/security-headers';
import { createLogDestination } from './lib/log-destination';
import { registerCompression } from './plugins/compression';
import { registerAuthRoutes } from './modules/auth/auth.routes';
import { createTokenService } from './modules/auth/tokens';
import { registerHealthRoutes } from './modules/health/health.routes';
import { registerWatchlistRoutes } from './modules/watchlist/watchlist.routes';
import { registerCTraderRoutes } from './modules/ctrader/ctrader.routes';
import { registerAccountRoutes } from './modules/accounts/accounts.routes';
import { registerMarketRoutes } from './modules/market/market.routes';
import { registerCandleRoutes } from './modules/market/candles.routes';
import { registerProfitProfileRoutes } from './modules/profit-profiles/profit-profiles.routes';
import { registerRiskRoutes } from './modules/risk/risk.routes';
import { registerTradeRoutes } from './modules/trades/trades.routes';
import { registerTradeSync } from './modules/trade-sync/trade-sync';
import { registerJournalRoutes } from './modules/journal/journal.routes';
import { registerMt5Routes } from './modules/mt5/mt5.routes';
import { registerScenarioRoutes } from './modules/scenarios/scenarios.routes';
import { registerHistoryRoutes } from './modules/history/history.routes';
import { registerBotsRoutes } from './modules/bots/bots.routes';
import { registerLiveRunRoutes } from './modules/live-runs/live-runs.routes';
import { registerSnapshotRoutes } from './modules/snapshots/snapshots.routes';
import { registerNewsRoutes } from './modules/news/news.routes';
import { registerAnalysisRoutes } from './modules/analysis/analysis.routes';
import { registerReportRoutes } from './modules/reports/reports.routes';
import { registerStatementImportRoutes } from './modules/statement-import/statement-import.routes';
import { registerUserSettingsRoutes } from './modules/users/user-settings.routes';
import { startJobs } from './jobs';

export const APP_VERSION = '0.1.0';

export interface RouteInfo {
  method: string;
  url: string;
  public: boolean;
}

export interface BuiltApp {
  app: FastifyInstance;
  ctx: AppContext;
  /** Every route registered, for checks that must hold on all of them (auth, docs). */
  routes: RouteInfo[];
}

/** Builds the whole server (plugins, modules, DB, migrations) without listening. */
export async function buildApp(config: AppConfig): Promise<BuiltApp> {
  const app = Fastify({
    logger: {
      level: config.logLevel,
      redact: {
        paths: [
          'req.headers.authorization',
          'req.body.password',
          '*.password',
          '*.token',
          '*.refresh',
          '*.access',
        ],
        censor: '[redacted]',
      },
      stream: config.logStream ?? createLogDestination(),
    },
    // One line per request at most, from plugins/request-log.ts.
    logController: new LogController({ disableRequestLogging: true }),
    genReqId: () => newId(),
    routerOptions: { ignoreTrailingSlash: true },
    bodyLimit: 1024 * 1024,
    // A hop count trusts that many proxies nearest to the server.
    trustProxy:
      typeof config.trustProxy === 'number'
        ? (_addr: string, hop: number) => hop < (config.trustProxy as number)
        : config.trustProxy,
  });
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  registerErrorHandling(app);
  registerRequestLog(app, config.slowRequestMs);
  await registerCompression(app);
  const routes: RouteInfo[] = [];
  app.addHook('onRoute', (route) => {
    // swagger-ui's own routes are public documentation pages.
    if (route.url.startsWith('/api/docs')) route.config = { ...(route.config ?? {}), public: true };
    for (const method of [route.method].flat()) {
      if (method !== 'HEAD') routes.push({ method, url: route.url, public: route.config?.public === true });
    }
  });

  const handle = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
  const shutdownFns: Array<() => Promise<void> | void> = [];
  const userCreatedFns: Array<(id: string) => Promise<void>> = [];
  const ctx: AppContext = {
    config,
    db: handle.db,
    dialect: handle.dialect,
    tokens: createTokenService(
      handle.db,
      config.jwtSecret,
      config.accessTokenTtlSeconds,
      config.refreshTokenTtlSeconds,
    ),
    secrets: createSecretBox(config.secretsKey),
    log: app.log,
    onShutdown: (fn) => void shutdownFns.push(fn),
    onUserCreated: (fn) => void userCreatedFns.push(fn),
    async userCreated(id) {
      for (const fn of userCreatedFns) await fn(id);
    },
  };
  app.addHook('onClose', async () => {
    // Newest first: features stop before the things they depend on.
    for (const fn of shutdownFns.reverse()) await fn();
    await handle.close();
  });

  await registerSecurityHeaders(app, config.trustProxy !== false);
  await app.register(fastifySwagger, {
    openapi: {
      info: {
        title: 'TradeDesk API',
        version: APP_VERSION,
        description: 'Trade manager and trading journal',
      },
      components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' } } },
      security: [{ bearer: [] }],
    },
    transform: openApiTransform,
    transformObject: (d) => finishOpenApi('openapiObject' in d ? d.openapiObject : d.swaggerObject, routes),
  });
  await app.register(fastifySwaggerUi, { routePrefix: '/api/docs', uiConfig: { deepLinking: false } });
  await app.register(fastifyWebsocket, { options: { maxPayload: 64 * 1024 } });
  registerGracefulClose(app);
  await app.register(fastifyMultipart, { limits: { fileSize: 10 * 1024 * 1024, files: 1, fields: 20 } });
  registerAuth(app, ctx.tokens);
  registerTextGuard(app);

  app.get('/api/openapi.json', { config: { public: true }, schema: { hide: true } }, async () =>
    app.swagger(),
  );
  registerHealthRoutes(app, handle, APP_VERSION);
  registerAuthRoutes(app, ctx);
  registerUserSettingsRoutes(app, ctx);
  registerWatchlistRoutes(app, ctx);
  registerCTraderRoutes(app, ctx);
  registerAccountRoutes(app, ctx);
  registerMarketRoutes(app, ctx);
  registerCandleRoutes(app, ctx);
  registerProfitProfileRoutes(app, ctx);
  registerScenarioRoutes(app, ctx);
  registerRiskRoutes(app, ctx);
  registerTradeSync(app, ctx);
  registerTradeRoutes(app, ctx);
  registerJournalRoutes(app, ctx);
  registerMt5Routes(app, ctx);
  registerHistoryRoutes(app, ctx);
  registerBotsRoutes(app, ctx);
  registerLiveRunRoutes(app, ctx);
  registerSnapshotRoutes(app, ctx);
  registerNewsRoutes(app, ctx);
  registerAnalysisRoutes(app, ctx);
  registerReportRoutes(app, ctx);
  registerStatementImportRoutes(app, ctx);

  registerSpa(app, config.webDist, config.serveSourceMaps);
  // After every module registered its job kinds: resumes the jobs a previous run left unfinished.
  // Not awaited: connecting the queue must not hold up serving (enqueueJob waits for it instead).
  app.addHook('onReady', () => {
    startJobs(ctx).catch((err: unknown) => ctx.log.error({ err }, 'job runner failed to start'));
  });
  return { app, ctx, routes };
}

/** Serves the built web app; unknown non-API paths get index.html so that the client router decides. */
function registerSpa(app: FastifyInstance, webDist: string | undefined, serveSourceMaps: boolean): void {
  const root = webDist && existsSync(path.join(webDist, 'index.html')) ? path.resolve(webDist) : undefined;
  if (root) {
    void app.register(fastifyStatic, {
      root,
      wildcard: false,
      // The build's .br/.gz twins, chosen by Accept-Encoding; maps only when configured.
      preCompressed: true,
      allowedPath: (pathName) => serveSourceMaps || !pathName.endsWith('.map'),
      setHeaders(reply, filePath) {
        reply.header(
          'cache-control',
          filePath.includes(`${path.sep}assets${path.sep}`)
            ? 'public, max-age=31536000, immutable'
            : 'no-cache',
        );
      },
    });
  }
  app.setNotFoundHandler((request, reply) => {
    const url = request.url.split('?')[0] ?? '';
    // A missing build file (an old tab asking for a chunk replaced by an upgrade) is a 404, never the
    // SPA's HTML under a script's URL.
    const isPage = !url.startsWith('/api/') && !url.startsWith('/ws/') && !url.startsWith('/assets/');
    if (root && (request.method === 'GET' || request.method === 'HEAD') && isPage) {
      return reply.header('cache-control', 'no-cache').type('text/html').sendFile('index.html');
    }
    return reply.status(404).send({ detail: 'Not found.' });
  });
}
