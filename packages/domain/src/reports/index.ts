export * from './figures';
export * from './time-zone';
export * from './breakdowns';
export * from './calendar';
export * from './distribution';
export * from './excursions';
export * from './discipline';
export * from './columns';
