/**
 * The time zones a trader may save as theirs: the runtime's IANA list (canonical names only, as
 * `Intl.supportedValuesOf` gives them) plus "UTC", which the list leaves out. Stricter than
 * `isTimeZone`, which accepts any name Intl can format with (aliases, offsets such as "+01:00"):
 * a saved zone is shown in a list, so it must be one of the list's names.
 */
export function timeZoneNames(): string[] {
  const names = Intl.supportedValuesOf('timeZone');
  return names.includes('UTC') ? [...names] : ['UTC', ...names];
}

let known: Set<string> | undefined;

/** True when `zone` is one of `timeZoneNames()` (exact spelling). */
export function isKnownTimeZone(zone: string): boolean {
  known ??= new Set(timeZoneNames());
  return known.has(zone);
}
