export * from './statement-trades';
export * from './statement-time';
export * from './statement-symbols';
