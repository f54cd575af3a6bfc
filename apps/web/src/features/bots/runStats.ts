/** The run page's stat groups: key of the stats object → label, in reading order. */
export const STAT_GROUPS: { title: string; rows: [key: string, label: string][] }[] = [
  {
    title: 'Period',
    rows: [
      ['start', 'Start'],
      ['end', 'End'],
      ['duration_days', 'Duration (days)'],
      ['exposure_pct', 'Exposure %'],
    ],
  },
  {
    title: 'Returns',
    rows: [
      ['equity_final', 'Equity Final'],
      ['equity_peak', 'Equity Peak'],
      ['net_profit', 'Net profit'],
      ['return_pct', 'Return %'],
      ['buy_and_hold_return_pct', 'Buy & Hold %'],
      ['cagr_pct', 'CAGR %'],
      ['commissions_paid', 'Commissions paid'],
    ],
  },
  {
    title: 'Risk',
    rows: [
      ['volatility_ann_pct', 'Volatility (ann.) %'],
      ['sharpe_ratio', 'Sharpe'],
      ['sortino_ratio', 'Sortino'],
      ['calmar_ratio', 'Calmar'],
      ['max_drawdown_pct', 'Max drawdown %'],
      ['avg_drawdown_pct', 'Avg drawdown %'],
      ['max_drawdown_duration_days', 'Max drawdown duration (days)'],
      ['avg_drawdown_duration_days', 'Avg drawdown duration (days)'],
    ],
  },
  {
    title: 'Trades',
    rows: [
      ['trades', '# Trades'],
      ['win_rate_pct', 'Win rate %'],
      ['best_trade', 'Best trade'],
      ['worst_trade', 'Worst trade'],
      ['avg_trade', 'Avg trade'],
      ['avg_win', 'Avg win'],
      ['avg_loss', 'Avg loss'],
      ['payoff_ratio', 'Payoff ratio'],
      ['profit_factor', 'Profit factor'],
      ['expectancy', 'Expectancy'],
      ['expectancy_r', 'Expectancy (R)'],
      ['sqn', 'SQN'],
      ['kelly_criterion', 'Kelly'],
      ['max_consecutive_wins', 'Max consecutive wins'],
      ['max_consecutive_losses', 'Max consecutive losses'],
      ['avg_trade_duration_hours', 'Avg trade duration (h)'],
      ['avg_winner_duration_hours', 'Avg winner duration (h)'],
      ['avg_loser_duration_hours', 'Avg loser duration (h)'],
    ],
  },
];

export function formatStat(value: unknown): string {
  if (value === null || value === undefined) return 'N/A';
  if (typeof value === 'number') return Number.isInteger(value) ? String(value) : value.toFixed(2);
  return String(value);
}
