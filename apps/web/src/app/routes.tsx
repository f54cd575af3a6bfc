import { createBrowserRouter, Navigate } from 'react-router';
import { AppLayout } from './AppLayout';
import { LandingPage } from '../features/landing/LandingPage';
import { LoginPage } from '../features/auth/LoginPage';
import { ReportsPage } from '../features/reports/ReportsPage';
import { NotBuiltYet } from '../features/placeholder/NotBuiltYet';
import { SelectAccountForHistoryPage } from '../features/history/SelectAccountForHistoryPage';
import { SpecificTradePage } from '../features/history/SpecificTradePage';
import { TradeHistoryPage } from '../features/history/TradeHistoryPage';
import { DashboardPage } from '../features/dashboard/DashboardPage';
import { ManageAccountsPage } from '../features/accounts/ManageAccountsPage';
import { SelectCTraderAccountPage } from '../features/accounts/SelectCTraderAccount';
import { WinRatePage } from '../features/win-rate/WinRatePage';

/**
 * The spec's route table (section 2). Each screen is one line; a feature replaces its
 * placeholder with its page when it lands. Anything else redirects to /.
 */
export const router = createBrowserRouter([
  { path: '/', element: <LandingPage /> },
  { path: '/login', element: <LoginPage /> },
  {
    element: <AppLayout />,
    children: [
      { path: '/dashboard', element: <DashboardPage /> },
      { path: '/accounts', element: <ManageAccountsPage /> },
      {
        path: '/accounts/:accountId/trade-history',
        element: <TradeHistoryPage />,
      },
      { path: '/trades/history/:tradeId', element: <SpecificTradePage /> },
      { path: '/trades/history', element: <SpecificTradePage /> },
      {
        path: '/select-account-for-history',
        element: <SelectAccountForHistoryPage />,
      },
      { path: '/settings', element: <NotBuiltYet title="Settings" feature="settings" /> },
      {
        path: '/settings/chart-snapshot-configs',
        element: <NotBuiltYet title="Chart Snapshot Configs" feature="snapshots" />,
      },
      { path: '/analysis', element: <NotBuiltYet title="Historical Data Analysis" feature="analysis" /> },
      { path: '/analysis/:jobId', element: <NotBuiltYet title="Analysis Job" feature="analysis" /> },
      { path: '/win-rate', element: <WinRatePage /> },
      { path: '/select-ctrader-account', element: <SelectCTraderAccountPage /> },
      { path: '/bots', element: <NotBuiltYet title="Trading Bots" feature="bots" /> },
      { path: '/bots/new', element: <NotBuiltYet title="Create Bot" feature="bots" /> },
      { path: '/bots/:botId', element: <NotBuiltYet title="Bot Details" feature="bots" /> },
      { path: '/bots/:botId/versions/new', element: <NotBuiltYet title="Create Version" feature="bots" /> },
      {
        path: '/bots/:botId/versions/:versionId',
        element: <NotBuiltYet title="Version Details" feature="bots" />,
      },
      {
        path: '/bots/:botId/versions/:versionId/backtest-configs/new',
        element: <NotBuiltYet title="New Backtest Config" feature="bots" />,
      },
      {
        path: '/bots/:botId/versions/:versionId/backtest-configs/:configId',
        element: <NotBuiltYet title="Edit Backtest Config" feature="bots" />,
      },
      { path: '/backtest-runs/:runId', element: <NotBuiltYet title="Backtest Run" feature="bots" /> },
      { path: '/reports', element: <ReportsPage /> },
    ],
  },
  { path: '*', element: <Navigate to="/" replace /> },
]);
