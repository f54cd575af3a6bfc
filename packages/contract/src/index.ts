export * from './common';
export * from './auth';
export * from './watchlist';
export * from './accounts';
export * from './win-rate';
export * from './risk-settings';
export * from './ctrader';
export * from './mt5';
