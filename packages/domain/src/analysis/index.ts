export * from './sessions';
export * from './stats';
export * from './trend-continuation';
export * from './vwap-conditional';
export * from './atr-scenario';
export * from './pipeline';
