export * from './money';
export * from './rounding';
export * from './currency';
export * from './lot-size';
export * from './stops';
export * from './targets';
export * from './risk-rules';
export * from './atr';
