import type { ComponentType } from 'react';
import { createBrowserRouter, Navigate, type RouteObject } from 'react-router';

/**
 * Loads a page's module when its route is first visited, so that each feature (and the charts and
 * editors it uses) ships in its own chunk and the first load carries only the page being shown.
 */
function page<M>(load: () => Promise<M>, pick: (m: M) => ComponentType): Pick<RouteObject, 'lazy'> {
  return { lazy: async () => ({ Component: pick(await load()) }) };
}

/**
 * The spec's route table (section 2). Each screen is one line; a feature replaces its
 * placeholder with its page when it lands. Anything else redirects to /.
 */
export const routeTable: RouteObject[] = [
  {
    path: '/',
    ...page(
      () => import('../features/landing/LandingPage'),
      (m) => m.LandingPage,
    ),
  },
  {
    path: '/login',
    ...page(
      () => import('../features/auth/LoginPage'),
      (m) => m.LoginPage,
    ),
  },
  {
    ...page(
      () => import('./AppLayout'),
      (m) => m.AppLayout,
    ),
    children: [
      {
        path: '/dashboard',
        ...page(
          () => import('../features/dashboard/DashboardPage'),
          (m) => m.DashboardPage,
        ),
      },
      {
        path: '/accounts',
        ...page(
          () => import('../features/accounts/ManageAccountsPage'),
          (m) => m.ManageAccountsPage,
        ),
      },
      {
        path: '/accounts/:accountId/trade-history',
        ...page(
          () => import('../features/history/TradeHistoryPage'),
          (m) => m.TradeHistoryPage,
        ),
      },
      {
        path: '/trades/history/:tradeId',
        ...page(
          () => import('../features/history/SpecificTradePage'),
          (m) => m.SpecificTradePage,
        ),
      },
      {
        path: '/trades/history',
        ...page(
          () => import('../features/history/SpecificTradePage'),
          (m) => m.SpecificTradePage,
        ),
      },
      {
        path: '/select-account-for-history',
        ...page(
          () => import('../features/history/SelectAccountForHistoryPage'),
          (m) => m.SelectAccountForHistoryPage,
        ),
      },
      {
        path: '/settings',
        ...page(
          () => import('../features/settings/SettingsPage'),
          (m) => m.SettingsPage,
        ),
      },
      {
        path: '/settings/chart-snapshot-configs',
        ...page(
          () => import('../features/snapshots/TemplateManagerPage'),
          (m) => m.TemplateManagerPage,
        ),
      },
      {
        path: '/analysis',
        ...page(
          () => import('../features/analysis/AnalysisPage'),
          (m) => m.AnalysisPage,
        ),
      },
      {
        path: '/analysis/:jobId',
        ...page(
          () => import('../features/analysis/AnalysisJobPage'),
          (m) => m.AnalysisJobPage,
        ),
      },
      {
        path: '/win-rate',
        ...page(
          () => import('../features/win-rate/WinRatePage'),
          (m) => m.WinRatePage,
        ),
      },
      {
        path: '/select-ctrader-account',
        ...page(
          () => import('../features/accounts/SelectCTraderAccount'),
          (m) => m.SelectCTraderAccountPage,
        ),
      },
      {
        path: '/bots',
        ...page(
          () => import('../features/bots/BotsListPage'),
          (m) => m.BotsListPage,
        ),
      },
      {
        path: '/bots/new',
        ...page(
          () => import('../features/bots/CreateBotPage'),
          (m) => m.CreateBotPage,
        ),
      },
      {
        path: '/bots/:botId',
        ...page(
          () => import('../features/bots/BotDetailPage'),
          (m) => m.BotDetailPage,
        ),
      },
      {
        path: '/bots/:botId/versions/new',
        ...page(
          () => import('../features/bots/CreateVersionPage'),
          (m) => m.CreateVersionPage,
        ),
      },
      {
        path: '/bots/:botId/versions/:versionId',
        ...page(
          () => import('../features/bots/VersionDetailPage'),
          (m) => m.VersionDetailPage,
        ),
      },
      {
        path: '/bots/:botId/versions/:versionId/backtest-configs/new',
        ...page(
          () => import('../features/bots/BacktestConfigPage'),
          (m) => m.BacktestConfigPage,
        ),
      },
      {
        path: '/bots/:botId/versions/:versionId/backtest-configs/:configId',
        ...page(
          () => import('../features/bots/BacktestConfigPage'),
          (m) => m.BacktestConfigPage,
        ),
      },
      {
        path: '/bots/live-runs/:runId',
        ...page(
          () => import('../features/bots/LiveRunPage'),
          (m) => m.LiveRunPage,
        ),
      },
      {
        path: '/backtest-runs/:runId',
        ...page(
          () => import('../features/bots/BacktestRunPage'),
          (m) => m.BacktestRunPage,
        ),
      },
      {
        path: '/reports',
        ...page(
          () => import('../features/reports/ReportsPage'),
          (m) => m.ReportsPage,
        ),
      },
    ],
  },
  { path: '*', element: <Navigate to="/" replace /> },
];

export const router = createBrowserRouter(routeTable);
